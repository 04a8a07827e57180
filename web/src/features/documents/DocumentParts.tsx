import "./documents.css";
import {
  AnchorButton,
  Button,
  Classes,
  Dialog,
  DialogBody,
  DialogFooter,
  NonIdealState,
  Tag,
} from "@blueprintjs/core";
import { Document as DocumentIcon, Download } from "@blueprintjs/icons";
import { formatBytes } from "@schema/validation/document";
import type { DocumentFieldsFragment, DocumentStatus } from "@web/generated/graphql";
import { DataTable } from "@web/ui/DataTable";
import { SearchField } from "@web/ui/FilterFields";
import { DOCUMENT_STATUS_TAGS, formatDateTime, HISTORY_ACTION_LABELS, previewKind } from "./documents";
import { PdfPreview } from "./PdfPreview";

/** A document's status as a small tag. */
export function DocumentStatusTag({ status }: { status: DocumentStatus }) {
  const tag = DOCUMENT_STATUS_TAGS[status];
  return (
    <Tag intent={tag.intent} minimal round>
      {tag.text}
    </Tag>
  );
}

/** Props of {@link DocumentSearchField}. */
export interface DocumentSearchFieldProps {
  id: string;
  value: string;
  onChange(value: string): void;
}

/** The search box of a filter bar over documents (the server matches the title and the file name). */
export function DocumentSearchField({ id, value, onChange }: DocumentSearchFieldProps) {
  return (
    <SearchField
      label="Search"
      id={id}
      inline
      icon
      placeholder="Title or file name"
      value={value}
      onChange={onChange}
    />
  );
}

type PreviewDocument = Pick<
  DocumentFieldsFragment,
  "title" | "previewUrl" | "mimeType" | "fileUrl" | "fileName"
>;

/**
 * The document itself, as far as the browser may show it: a PDF's pages drawn with pdf.js (at most
 * `maxHeight` CSS pixels tall), an image, or a "No preview for this type" state with a download
 * button.
 */
export function DocumentPreview({ document, maxHeight }: { document: PreviewDocument; maxHeight?: number }) {
  const kind = previewKind(document);
  if (kind === "pdf" && document.previewUrl) {
    return (
      <PdfPreview
        url={document.previewUrl}
        title={document.title}
        fileUrl={document.fileUrl}
        maxHeight={maxHeight}
      />
    );
  }
  if (kind === "image" && document.previewUrl) {
    return (
      <div className="documents-preview-image">
        <img src={document.previewUrl} alt={`Preview of ${document.title}`} />
      </div>
    );
  }
  return (
    <NonIdealState
      icon={<DocumentIcon />}
      title="No preview for this type"
      description={`${document.fileName} can be downloaded and opened on your device.`}
      action={
        <AnchorButton
          href={document.fileUrl}
          download
          icon={<Download />}
          text="Download"
          aria-label={`Download ${document.title}`}
        />
      }
    />
  );
}

/** A dialog showing a document's preview (opened only for documents with a previewUrl). */
export function PreviewDialog({ document, onClose }: { document: PreviewDocument | null; onClose(): void }) {
  return (
    <Dialog
      isOpen={document !== null}
      title={document ? `Preview: ${document.title}` : "Preview"}
      onClose={onClose}
      className="documents-preview-dialog"
    >
      {document && (
        <>
          <DialogBody>
            <DocumentPreview document={document} maxHeight={Math.round(window.innerHeight * 0.6)} />
          </DialogBody>
          <DialogFooter
            actions={
              <>
                <AnchorButton href={document.fileUrl} download icon={<Download />} text="Download" />
                <Button text="Close" onClick={onClose} autoFocus />
              </>
            }
          />
        </>
      )}
    </Dialog>
  );
}

type HistoryDocument = Pick<DocumentFieldsFragment, "history" | "versions" | "title">;

/** A document's versions (each downloadable) and every upload and decision, oldest first. */
export function DocumentHistory({ document }: { document: HistoryDocument }) {
  return (
    <div className="documents-history">
      <DataTable
        scrollClassName="documents-table-scroll"
        className="documents-table"
        label={`Versions of ${document.title}`}
        plainHeadings
        columns={["Version", "File", "Size", "Uploaded"]}
        rows={document.versions}
      >
        {(v) => (
          <tr key={v.version}>
            <td>{v.version}</td>
            <td>
              <a href={v.downloadUrl} download>
                {v.fileName}
              </a>
            </td>
            <td>{formatBytes(v.fileSize)}</td>
            <td>{formatDateTime(v.createdAt)}</td>
          </tr>
        )}
      </DataTable>
      <ol
        className={`${Classes.LIST_UNSTYLED} documents-history-list`}
        aria-label={`History of ${document.title}`}
      >
        {document.history.map((h) => (
          <li key={`${h.version}-${h.action}-${h.createdAt}`}>
            <strong>{HISTORY_ACTION_LABELS[h.action]}</strong> (version {h.version}) by {h.actorName}
            <span className={Classes.TEXT_MUTED}> · {formatDateTime(h.createdAt)}</span>
            {h.reason && <div className="documents-reason">Reason: {h.reason}</div>}
          </li>
        ))}
      </ol>
    </div>
  );
}

/** A dialog with a document's history. */
export function HistoryDialog({ document, onClose }: { document: HistoryDocument | null; onClose(): void }) {
  return (
    <Dialog
      isOpen={document !== null}
      title={document ? `History: ${document.title}` : "History"}
      onClose={onClose}
    >
      {document && (
        <>
          <DialogBody>
            <DocumentHistory document={document} />
          </DialogBody>
          <DialogFooter actions={<Button text="Close" onClick={onClose} autoFocus />} />
        </>
      )}
    </Dialog>
  );
}

/** "Load more" under a documents list, while there is a next page. */
export function LoadMoreButton({
  page,
  more,
}: {
  page: { hasNextPage: boolean } | null | undefined;
  more: { loading: boolean; loadMore(): void };
}) {
  return page?.hasNextPage ? (
    <Button className="documents-load-more" text="Load more" loading={more.loading} onClick={more.loadMore} />
  ) : null;
}
