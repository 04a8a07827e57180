import {
  AnchorButton,
  Button,
  ButtonGroup,
  Callout,
  Card,
  Classes,
  H2,
  H3,
  Intent,
  NonIdealState,
} from "@blueprintjs/core";
import { Cross, Document as DocumentIcon, Download, Tick } from "@blueprintjs/icons";
import { formatBytes } from "@schema/validation/document";
import { DocumentHistory, DocumentPreview, DocumentStatusTag } from "@web/features/documents/DocumentParts";
import { formatDateTime, personName } from "@web/features/documents/documents";
import type { ReviewDocumentFieldsFragment } from "@web/generated/graphql";

/** Props of the preview panel. */
export interface ReviewPanelProps {
  document: ReviewDocumentFieldsFragment | null;
  approving: boolean;
  onApprove(): void;
  onReject(): void;
}

/**
 * The selected document beside the queue: who sent it and what it is, the file itself (a PDF or an
 * image, else a download), Approve and "Reject…" while it is pending, and its history.
 */
export function ReviewPanel({ document: doc, approving, onApprove, onReject }: ReviewPanelProps) {
  if (!doc) {
    return (
      <Card compact className="review-panel" role="region" aria-label="Selected document">
        <NonIdealState
          icon={<DocumentIcon />}
          title="No document selected"
          description="Choose a document in the list to see it here."
        />
      </Card>
    );
  }
  const owner = doc.owner;
  return (
    <Card
      compact
      className="review-panel"
      role="region"
      aria-label="Selected document"
      data-document-id={doc.id}
    >
      <div className="review-panel-head">
        <H2 className="review-panel-title">{doc.title}</H2>
        <DocumentStatusTag status={doc.status} />
      </div>
      <dl className="review-facts">
        <dt>Client</dt>
        <dd>
          {personName(owner)}
          {owner.companyName ? ` (${owner.companyName})` : ""}
          <div className={Classes.TEXT_MUTED}>{owner.email}</div>
        </dd>
        <dt>File</dt>
        <dd>
          {doc.fileName}
          <div className={Classes.TEXT_MUTED}>
            {doc.fileType.toUpperCase()}
            {doc.fileSize == null ? "" : ` · ${formatBytes(doc.fileSize)}`}
            {doc.mimeType ? ` · ${doc.mimeType}` : ""} · version {doc.version}
          </div>
        </dd>
        <dt>{doc.fromTeam ? "Sent" : "Submitted"}</dt>
        <dd>
          {formatDateTime(doc.createdAt)}
          {doc.uploadedByName ? ` by ${doc.uploadedByName}` : ""}
        </dd>
        {doc.description && (
          <>
            <dt>Description</dt>
            <dd className="documents-card-description">{doc.description}</dd>
          </>
        )}
      </dl>
      {doc.status === "rejected" && (
        <Callout intent={Intent.DANGER} compact>
          Rejected by {doc.rejectedBy ?? "a reviewer"}
          {doc.rejectedAt ? ` on ${formatDateTime(doc.rejectedAt)}` : ""}: {doc.rejectionReason}
        </Callout>
      )}
      {doc.status === "approved" && doc.approvedAt && (
        <Callout intent={Intent.SUCCESS} compact>
          Approved by {doc.approvedBy ?? "a reviewer"} on {formatDateTime(doc.approvedAt)}
        </Callout>
      )}
      <ButtonGroup className="review-panel-actions">
        {doc.status === "pending" && (
          <>
            <Button
              intent={Intent.SUCCESS}
              icon={<Tick />}
              text="Approve"
              loading={approving}
              onClick={onApprove}
            />
            <Button intent={Intent.DANGER} icon={<Cross />} text="Reject…" onClick={onReject} />
          </>
        )}
        <AnchorButton href={doc.fileUrl} download icon={<Download />} text="Download" />
      </ButtonGroup>
      <div className="review-preview">
        <DocumentPreview document={doc} />
      </div>
      <H3 className="review-history-heading">History</H3>
      <DocumentHistory document={doc} />
    </Card>
  );
}
