import { useMutation, useQuery } from "@apollo/client/react";
import "@web/features/documents/documents.css";
import "@web/ui/toolbars.css";
import "./review.css";
import {
  Button,
  Checkbox,
  Classes,
  FormGroup,
  H1,
  HTMLSelect,
  HTMLTable,
  Intent,
  NonIdealState,
  SegmentedControl,
  Spinner,
} from "@blueprintjs/core";
import { Envelope, Tick } from "@blueprintjs/icons";
import {
  DOCUMENT_SORTS,
  type DocumentStatusName,
  formatBytes,
  KNOWN_FILE_TYPE_NAMES,
} from "@schema/validation/document";
import {
  DocumentSearchField,
  DocumentStatusTag,
  LoadMoreButton,
} from "@web/features/documents/DocumentParts";
import {
  appendPage,
  approvableSelection,
  dayRange,
  formatDate,
  personName,
} from "@web/features/documents/documents";
import {
  ApproveDocumentDocument,
  ApproveDocumentsDocument,
  type DocumentFilterInput,
  type DocumentSort,
  type ReviewDocumentFieldsFragment,
  ReviewDocumentsDocument,
} from "@web/generated/graphql";
import { showToast } from "@web/lib/toast";
import { CellText } from "@web/ui/CellText";
import { DateRangeFields } from "@web/ui/DateRangeFields";
import { FilterBar, SelectField } from "@web/ui/FilterFields";
import { useDebounced } from "@web/ui/hooks";
import { useLoadAfter } from "@web/ui/KeysetList";
import { LoadErrorCallout } from "@web/ui/LoadError";
import { toastAnswer } from "@web/ui/mutationToast";
import { useEffect, useId, useMemo, useState } from "react";
import { ClientPicker, type PickedClient } from "./ClientPicker";
import { RejectDialog, ReportDialog } from "./ReviewDialogs";
import { ReviewPanel } from "./ReviewPanel";

/** Documents per page of the queue. */
const QUEUE_PAGE = 25;

type StatusView = DocumentStatusName | "all";

const SORT_LABELS: Record<(typeof DOCUMENT_SORTS)[number], string> = {
  createdAt_asc: "Oldest first",
  createdAt_desc: "Newest first",
  title_asc: "Title A–Z",
  title_desc: "Title Z–A",
};

const REFETCH = { refetchQueries: [ReviewDocumentsDocument], awaitRefetchQueries: true };

/**
 * Documentation (spec §2, read:all_documents and approve:documents; issue 9): the review queue,
 * pending and oldest first, with filters, counts per status, bulk approval, a preview panel beside
 * the list with Approve and "Reject…", each document's history, and sending a report to a client.
 */
export function DocumentationPage() {
  return <ReviewQueue />;
}

function ReviewQueue() {
  const ids = { search: useId(), type: useId(), from: useId(), to: useId(), sort: useId() };
  const [status, setStatus] = useState<StatusView>("pending");
  const [client, setClient] = useState<PickedClient | null>(null);
  const [fileType, setFileType] = useState("");
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const [search, setSearch] = useState("");
  const [sort, setSort] = useState<DocumentSort>("createdAt_asc");
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [current, setCurrent] = useState<ReviewDocumentFieldsFragment | null>(null);
  const [rejecting, setRejecting] = useState<ReviewDocumentFieldsFragment | null>(null);
  const [reporting, setReporting] = useState(false);
  const query = useDebounced(search.trim());
  const range = dayRange(from, to);

  const filter: DocumentFilterInput = {
    status: status === "all" ? undefined : status,
    userId: client?.id,
    fileType: fileType || undefined,
    search: query || undefined,
    ...(range ?? {}),
    sort,
    first: QUEUE_PAGE,
  };
  const {
    data: fresh,
    previousData,
    loading,
    error,
    refetch,
    fetchMore,
  } = useQuery(ReviewDocumentsDocument, {
    variables: { filter },
    skip: range === null,
    fetchPolicy: "cache-and-network",
  });
  // while other filters load, the list shown so far stays (no spinner in its place, focus kept)
  const data = fresh ?? (loading ? previousData : undefined);
  const page = range === null ? undefined : data?.documents;
  const shown = useMemo(() => page?.nodes ?? [], [page]);
  const counts = page?.counts;
  // the panel follows the list's copy of the selected document (fresh after each refetch)
  const panel = current ? (shown.find((d) => d.id === current.id) ?? current) : null;
  const approvable = approvableSelection(selected, shown);
  const pendingShown = shown.filter((d) => d.status === "pending");

  useEffect(() => {
    // a selection the filters no longer show is dropped
    setSelected((earlier) => {
      const visible = new Set(shown.map((d) => d.id));
      const kept = [...earlier].filter((id) => visible.has(id));
      return kept.length === earlier.size ? earlier : new Set(kept);
    });
  }, [shown]);

  const [approveOne, approveOneState] = useMutation(ApproveDocumentDocument, REFETCH);
  const [approveMany, approveManyState] = useMutation(ApproveDocumentsDocument, REFETCH);

  /** After a decision: the next document of the list after `doc`, else the decided one itself. */
  const moveOn = (doc: ReviewDocumentFieldsFragment, updated: ReviewDocumentFieldsFragment | null) => {
    const at = shown.findIndex((d) => d.id === doc.id);
    const next = shown.slice(at + 1).find((d) => d.status === "pending");
    setCurrent(next ?? updated ?? doc);
  };

  const approve = async (doc: ReviewDocumentFieldsFragment) => {
    try {
      const result = await approveOne({ variables: { id: doc.id } });
      const answer = result.data?.approveDocument;
      const ok = toastAnswer(
        answer,
        { title: "Document approved", description: `"${doc.title}" from ${personName(doc.owner)}` },
        "Failed to approve document",
      );
      if (ok) moveOn(doc, answer?.__typename === "MutationApproveDocumentSuccess" ? answer.data : null);
    } catch {
      toastAnswer(undefined, { title: "", description: "" }, "Failed to approve document");
    }
  };

  const approveSelected = async () => {
    try {
      const result = await approveMany({ variables: { ids: approvable } });
      const answer = result.data?.approveDocuments;
      if (answer?.__typename !== "MutationApproveDocumentsSuccess") {
        toastAnswer(answer, { title: "", description: "" }, "Failed to approve documents");
        return;
      }
      const { approved, failed } = answer.data;
      showToast({
        title: `${approved.length} ${approved.length === 1 ? "document" : "documents"} approved`,
        description: failed.length
          ? `${failed.length} not approved: ${failed.map((f) => `#${f.id} ${f.message}`).join("; ")}`
          : "The clients are told by email",
        intent: failed.length ? Intent.WARNING : Intent.SUCCESS,
      });
      setSelected(new Set());
    } catch {
      toastAnswer(undefined, { title: "", description: "" }, "Failed to approve documents");
    }
  };

  const more = useLoadAfter("More documents could not be loaded", page?.endCursor, (after) =>
    fetchMore({
      variables: { filter: { ...filter, after } },
      updateQuery: (earlier, { fetchMoreResult }) => ({
        documents: appendPage(earlier.documents, fetchMoreResult.documents),
      }),
    }),
  );

  const toggle = (id: number, on: boolean) =>
    setSelected((earlier) => {
      const next = new Set(earlier);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const allPendingSelected = pendingShown.length > 0 && pendingShown.every((d) => selected.has(d.id));

  const statusLabel = (s: StatusView, text: string) => {
    const count = counts ? (s === "all" ? counts.total : counts[s]) : null;
    return count === null ? text : `${text} (${count})`;
  };

  return (
    <section className="portal-page review-page">
      <div className="review-head">
        <H1>Documentation</H1>
        <Button icon={<Envelope />} text="Send a report to a client" onClick={() => setReporting(true)} />
      </div>
      <SegmentedControl
        aria-label="Status"
        className="review-status"
        options={[
          { label: statusLabel("pending", "Pending"), value: "pending" },
          { label: statusLabel("approved", "Approved"), value: "approved" },
          { label: statusLabel("rejected", "Rejected"), value: "rejected" },
          { label: statusLabel("all", "All"), value: "all" },
        ]}
        value={status}
        onValueChange={(v) => setStatus(v as StatusView)}
      />
      <FilterBar className="documents-filters review-filters" label="Filter documents">
        <DocumentSearchField id={ids.search} value={search} onChange={setSearch} />
        <ClientPicker label="Client" emptyText="Any client" value={client} onChange={setClient} inline />
        <SelectField
          label="Type"
          id={ids.type}
          inline
          value={fileType}
          onChange={setFileType}
          options={[
            { value: "", label: "Any" },
            ...KNOWN_FILE_TYPE_NAMES.map((t) => ({ value: t, label: t })),
          ]}
        />
        <DateRangeFields
          ids={ids}
          from={from}
          to={to}
          problem={range === null ? "The From date must be on or before the To date" : undefined}
          inline
          onChange={(key, value) => (key === "from" ? setFrom : setTo)(value)}
        />
        <FormGroup label="Sort" labelFor={ids.sort} inline>
          <HTMLSelect
            id={ids.sort}
            value={sort}
            onChange={(e) => setSort(e.currentTarget.value as DocumentSort)}
            options={DOCUMENT_SORTS.map((s) => ({ value: s, label: SORT_LABELS[s] }))}
          />
        </FormGroup>
      </FilterBar>
      <div className="review-toolbar" aria-live="polite">
        <span>
          {page ? `${shown.length} of ${page.totalCount} shown` : ""}
          {selected.size > 0 ? ` · ${selected.size} selected` : ""}
        </span>
        <Button
          intent={Intent.SUCCESS}
          icon={<Tick />}
          text={`Approve selected${approvable.length ? ` (${approvable.length})` : ""}`}
          disabled={approvable.length === 0}
          loading={approveManyState.loading}
          onClick={() => void approveSelected()}
        />
      </div>
      <div className="review-layout">
        <div className="review-list">
          {error && !fresh ? (
            <LoadErrorCallout
              intent={Intent.DANGER}
              title="Documents could not be loaded"
              onRetry={() => void refetch()}
            >
              {error.message}{" "}
            </LoadErrorCallout>
          ) : loading && !data && range !== null ? (
            <Spinner size={24} aria-label="Loading documents" />
          ) : shown.length === 0 ? (
            <NonIdealState
              title={status === "pending" ? "Nothing to review" : "No documents"}
              description={
                status === "pending"
                  ? "No pending document matches these filters."
                  : "No document matches these filters."
              }
            />
          ) : (
            <div className="documents-table-scroll">
              <HTMLTable compact striped className="documents-table review-table" aria-label="Documents">
                <thead>
                  <tr>
                    <th>
                      <Checkbox
                        className="review-check"
                        aria-label="Select every pending document shown"
                        checked={allPendingSelected}
                        disabled={pendingShown.length === 0}
                        onChange={(e) => {
                          const on = e.currentTarget.checked;
                          setSelected(on ? new Set(pendingShown.map((d) => d.id)) : new Set());
                        }}
                      />
                    </th>
                    <th>Document</th>
                    <th>Client</th>
                    <th>Status</th>
                    <th>Submitted</th>
                  </tr>
                </thead>
                <tbody>
                  {shown.map((doc) => (
                    <tr
                      key={doc.id}
                      data-document-id={doc.id}
                      className={panel?.id === doc.id ? "review-row-current" : undefined}
                      onClick={() => setCurrent(doc)}
                    >
                      <td>
                        <Checkbox
                          className="review-check"
                          aria-label={`Select ${doc.title}`}
                          checked={selected.has(doc.id)}
                          disabled={doc.status !== "pending"}
                          onClick={(e) => e.stopPropagation()}
                          onChange={(e) => toggle(doc.id, e.currentTarget.checked)}
                        />
                      </td>
                      <td>
                        <Button
                          variant="minimal"
                          size="small"
                          className="review-open"
                          text={doc.title}
                          active={panel?.id === doc.id}
                          aria-pressed={panel?.id === doc.id}
                          onClick={(e) => {
                            e.stopPropagation();
                            setCurrent(doc);
                          }}
                        />
                        <CellText className={Classes.TEXT_MUTED}>
                          {`${doc.fileName}${doc.fileSize == null ? "" : ` · ${formatBytes(doc.fileSize)}`}`}
                        </CellText>
                      </td>
                      <td>
                        {personName(doc.owner)}
                        <CellText width="wide" className={Classes.TEXT_MUTED}>
                          {doc.owner.email}
                        </CellText>
                      </td>
                      <td>
                        <DocumentStatusTag status={doc.status} />
                        {doc.fromTeam && <div className={Classes.TEXT_MUTED}>Report</div>}
                        {doc.version > 1 && <div className={Classes.TEXT_MUTED}>Version {doc.version}</div>}
                      </td>
                      <td>{formatDate(doc.createdAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </HTMLTable>
            </div>
          )}
          <LoadMoreButton page={page} more={more} />
        </div>
        <ReviewPanel
          document={panel}
          approving={approveOneState.loading}
          onApprove={() => panel && void approve(panel)}
          onReject={() => panel && setRejecting(panel)}
        />
      </div>
      {rejecting && (
        <RejectDialog
          document={rejecting}
          onClose={() => setRejecting(null)}
          onDecided={(updated) => {
            setRejecting(null);
            moveOn(rejecting, updated);
          }}
        />
      )}
      {reporting && <ReportDialog onClose={() => setReporting(false)} />}
    </section>
  );
}
