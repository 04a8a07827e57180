import "./documents.css";
import { useApolloClient, useMutation, useQuery } from "@apollo/client/react";
import {
  Alert,
  AnchorButton,
  Button,
  ButtonGroup,
  Callout,
  Card,
  Classes,
  Dialog,
  DialogBody,
  DialogFooter,
  H2,
  Intent,
  NonIdealState,
  Spinner,
} from "@blueprintjs/core";
import { Download, EyeOpen, FolderOpen, History, Inbox, Refresh, Trash } from "@blueprintjs/icons";
import { type DocumentStatusName, formatBytes } from "@schema/validation/document";
import {
  DeleteDocumentDocument,
  type DocumentFieldsFragment,
  type DocumentFilterInput,
  MyDocumentsDocument,
  type UploadPolicyQuery,
} from "@web/generated/graphql";
import { showToast } from "@web/lib/toast";
import { FilterBar, SelectField } from "@web/ui/FilterFields";
import { useDebounced, useReturnFocus } from "@web/ui/hooks";
import { useLoadAfter } from "@web/ui/KeysetList";
import { LoadErrorCallout } from "@web/ui/LoadError";
import { runWithToast } from "@web/ui/mutationToast";
import { useId, useState } from "react";
import {
  DocumentSearchField,
  DocumentStatusTag,
  HistoryDialog,
  LoadMoreButton,
  PreviewDialog,
} from "./DocumentParts";
import { appendPage, formatDate, formatDateTime } from "./documents";
import { DropZone, UploadList } from "./UploadPanel";
import { useUploads } from "./useUploads";

/** Documents per page of a list ("Load more" asks for the next as many). */
export const PAGE_SIZE = 25;

type Policy = UploadPolicyQuery["uploadPolicy"];

/** Props of a list of the signed-in client's documents. */
export interface MyDocumentListProps {
  /** the team's reports ("From the team") rather than the client's own documents */
  fromTeam: boolean;
  heading: string;
  policy: Policy | null;
}

/**
 * The signed-in client's documents (or the team's reports for them): a search box (the server
 * matches title and file name) and a status filter, one card per document with its status, the
 * rejection reason, download, preview, history, resubmit and delete, and "Load more".
 */
export function MyDocumentList({ fromTeam, heading, policy }: MyDocumentListProps) {
  const ids = { search: useId(), status: useId(), heading: useId() };
  const [search, setSearch] = useState("");
  const [status, setStatus] = useState<DocumentStatusName | "">("");
  const query = useDebounced(search.trim());
  const filter: DocumentFilterInput = {
    fromTeam,
    status: status || undefined,
    search: query || undefined,
    first: PAGE_SIZE,
  };
  const { data, loading, error, refetch, fetchMore } = useQuery(MyDocumentsDocument, {
    variables: { filter },
    fetchPolicy: "cache-and-network",
  });
  const [preview, setPreview] = useState<DocumentFieldsFragment | null>(null);
  const [history, setHistory] = useState<DocumentFieldsFragment | null>(null);
  const [resubmit, setResubmit] = useState<DocumentFieldsFragment | null>(null);
  const [deleting, setDeleting] = useState<DocumentFieldsFragment | null>(null);
  const page = data?.myDocuments;
  const documents = page?.nodes ?? [];
  const filtered = Boolean(query || status);

  const more = useLoadAfter("More documents could not be loaded", page?.endCursor, (after) =>
    fetchMore({
      variables: { filter: { ...filter, after } },
      updateQuery: (earlier, { fetchMoreResult }) => ({
        myDocuments: appendPage(earlier.myDocuments, fetchMoreResult.myDocuments),
      }),
    }),
  );

  return (
    <section className="documents-section" aria-labelledby={ids.heading}>
      <div className="documents-section-head">
        <H2 id={ids.heading}>{heading}</H2>
        {page && (
          <span className={Classes.TEXT_MUTED} aria-live="polite">
            {page.totalCount} {page.totalCount === 1 ? "document" : "documents"}
          </span>
        )}
      </div>
      <FilterBar className="documents-filters" label={`Filter ${heading.toLowerCase()}`}>
        <DocumentSearchField id={ids.search} value={search} onChange={setSearch} />
        {!fromTeam && (
          <SelectField
            label="Status"
            id={ids.status}
            inline
            value={status}
            onChange={(value) => setStatus(value as DocumentStatusName | "")}
            options={[
              { value: "", label: "All" },
              { value: "pending", label: "Pending" },
              { value: "approved", label: "Approved" },
              { value: "rejected", label: "Rejected" },
            ]}
          />
        )}
      </FilterBar>
      {error && !data ? (
        <LoadErrorCallout
          intent={Intent.WARNING}
          title={`${heading} could not be loaded`}
          onRetry={() => void refetch()}
        />
      ) : loading && !data ? (
        <Spinner size={24} aria-label={`Loading ${heading.toLowerCase()}`} />
      ) : documents.length === 0 ? (
        <NonIdealState
          icon={fromTeam ? <Inbox /> : <FolderOpen />}
          title={filtered ? "No document matches" : fromTeam ? "No reports yet" : "No documents yet"}
          description={
            filtered
              ? "Try another search or status."
              : fromTeam
                ? "Reports the team sends you appear here."
                : "Documents you send appear here with their review status."
          }
        />
      ) : (
        <ul className={`${Classes.LIST_UNSTYLED} documents-cards`} aria-label={heading}>
          {documents.map((doc) => (
            <li key={doc.id}>
              <DocumentCard
                document={doc}
                onPreview={() => setPreview(doc)}
                onHistory={() => setHistory(doc)}
                onResubmit={() => setResubmit(doc)}
                onDelete={() => setDeleting(doc)}
                onDownloaded={() => window.setTimeout(() => void refetch(), 1500)}
              />
            </li>
          ))}
        </ul>
      )}
      <LoadMoreButton page={page} more={more} />
      <PreviewDialog document={preview} onClose={() => setPreview(null)} />
      <HistoryDialog document={history} onClose={() => setHistory(null)} />
      {resubmit && policy && (
        <ResubmitDialog document={resubmit} policy={policy} onClose={() => setResubmit(null)} />
      )}
      <DeleteAlert document={deleting} onClose={() => setDeleting(null)} />
    </section>
  );
}

interface DocumentCardProps {
  document: DocumentFieldsFragment;
  onPreview(): void;
  onHistory(): void;
  onResubmit(): void;
  onDelete(): void;
  onDownloaded(): void;
}

/** One document: title, status, file, dates and counts, the rejection reason, and its actions. */
function DocumentCard({
  document: doc,
  onPreview,
  onHistory,
  onResubmit,
  onDelete,
  onDownloaded,
}: DocumentCardProps) {
  const size = doc.fileSize == null ? null : formatBytes(doc.fileSize);
  return (
    <Card compact className="documents-card" data-document-id={doc.id}>
      <div className="documents-card-head">
        <strong className="documents-card-title">{doc.title}</strong>
        <DocumentStatusTag status={doc.status} />
      </div>
      <div className={Classes.TEXT_MUTED}>
        {doc.fileName}
        {size ? ` · ${size}` : ""} · {doc.fromTeam ? "Sent" : "Uploaded"} {formatDate(doc.createdAt)}
        {doc.fromTeam && doc.uploadedByName ? ` by ${doc.uploadedByName}` : ""}
        {doc.version > 1 ? ` · version ${doc.version}` : ""} · {doc.downloadCount}{" "}
        {doc.downloadCount === 1 ? "download" : "downloads"}
      </div>
      {doc.description && <div className="documents-card-description">{doc.description}</div>}
      {doc.status === "rejected" && (
        <Callout intent={Intent.DANGER} compact className="documents-rejection">
          <strong>Rejected{doc.rejectedAt ? ` on ${formatDateTime(doc.rejectedAt)}` : ""}:</strong>{" "}
          {doc.rejectionReason ?? "No reason was given."}
        </Callout>
      )}
      {doc.status === "approved" && doc.approvedAt && !doc.fromTeam && (
        <div className={Classes.TEXT_MUTED}>Approved {formatDateTime(doc.approvedAt)}</div>
      )}
      <ButtonGroup variant="minimal" size="small" className="documents-card-actions">
        <AnchorButton
          href={doc.fileUrl}
          download
          icon={<Download />}
          text="Download"
          aria-label={`Download ${doc.title}`}
          onClick={onDownloaded}
        />
        {doc.previewUrl && (
          <Button icon={<EyeOpen />} text="Preview" aria-label={`Preview ${doc.title}`} onClick={onPreview} />
        )}
        <Button
          icon={<History />}
          text="History"
          aria-label={`History of ${doc.title}`}
          onClick={onHistory}
        />
        {doc.status === "rejected" && !doc.fromTeam && (
          <Button
            intent={Intent.PRIMARY}
            icon={<Refresh />}
            text="Resubmit"
            aria-label={`Resubmit ${doc.title}`}
            onClick={onResubmit}
          />
        )}
        {doc.status !== "approved" && !doc.fromTeam && (
          <Button
            intent={Intent.DANGER}
            icon={<Trash />}
            text="Delete"
            aria-label={`Delete ${doc.title}`}
            onClick={onDelete}
          />
        )}
      </ButtonGroup>
    </Card>
  );
}

/** A rejected document's new file: a picker, the upload's progress, and the document's title kept. */
function ResubmitDialog({
  document: doc,
  policy,
  onClose,
}: {
  document: DocumentFieldsFragment;
  policy: Policy;
  onClose(): void;
}) {
  useReturnFocus();
  const client = useApolloClient();
  const uploads = useUploads((_item, uploaded) => {
    showToast({
      title: "Document resubmitted",
      description: `"${uploaded?.title || doc.title}" is waiting for review again`,
      intent: Intent.SUCCESS,
    });
    void client.refetchQueries({ include: [MyDocumentsDocument] });
    onClose();
  });
  const busy = uploads.items.some((i) => i.phase === "uploading" || i.phase === "paused");
  return (
    <Dialog
      isOpen
      title={`Resubmit ${doc.title}`}
      onClose={busy ? undefined : onClose}
      canEscapeKeyClose={!busy}
    >
      <DialogBody>
        {doc.rejectionReason && (
          <Callout intent={Intent.DANGER} compact>
            Reason for the rejection: {doc.rejectionReason}
          </Callout>
        )}
        <p>
          Choose the corrected file. It becomes version {doc.version + 1}; the earlier versions stay in the
          history.
        </p>
        {uploads.items.length === 0 ? (
          <DropZone
            label={`New file for ${doc.title}`}
            allowedFileTypes={policy.allowedFileTypes}
            onFiles={(files) => uploads.add(files.slice(0, 1), doc.title)}
          />
        ) : (
          <UploadList
            uploads={uploads}
            policy={policy}
            purpose={{ kind: "resubmit", documentId: doc.id }}
            editable={false}
          />
        )}
      </DialogBody>
      <DialogFooter actions={<Button text="Close" onClick={onClose} disabled={busy} />} />
    </Dialog>
  );
}

/** The confirmation before deleting a pending or rejected document. */
function DeleteAlert({
  document: doc,
  onClose,
}: {
  document: DocumentFieldsFragment | null;
  onClose(): void;
}) {
  const [remove, state] = useMutation(DeleteDocumentDocument, {
    refetchQueries: [MyDocumentsDocument],
    awaitRefetchQueries: true,
  });
  const run = async () => {
    if (!doc) return;
    await runWithToast({
      run: async () => (await remove({ variables: { id: doc.id } })).data?.deleteDocument,
      success: "MutationDeleteDocumentSuccess",
      saved: () => ({ title: "Document deleted", description: `"${doc.title}" was deleted` }),
      failure: "Failed to delete document",
    });
    onClose();
  };
  return (
    <Alert
      isOpen={doc !== null}
      intent={Intent.DANGER}
      icon={<Trash />}
      confirmButtonText="Delete document"
      cancelButtonText="Keep it"
      loading={state.loading}
      onConfirm={() => void run()}
      onCancel={onClose}
    >
      {doc && <p>Delete "{doc.title}" and all its versions? This cannot be undone.</p>}
    </Alert>
  );
}
