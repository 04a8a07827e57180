import "./documents.css";
import { useApolloClient, useQuery } from "@apollo/client/react";
import { Button, Callout, Card, Classes, H1, H2, Intent, Spinner } from "@blueprintjs/core";
import { formatBytes } from "@schema/validation/document";
import { MyDocumentsDocument, UploadPolicyDocument, type UploadPolicyQuery } from "@web/generated/graphql";
import { serialRefresh } from "@web/lib/serialRefresh";
import { showToast } from "@web/lib/toast";
import { discardUnfinishedUpload, type UnfinishedUpload, unfinishedUploads } from "@web/lib/upload";
import { useEffect, useId, useMemo, useState } from "react";
import { formatDateTime } from "./documents";
import { MyDocumentList } from "./MyDocuments";
import { DropZone, UploadList } from "./UploadPanel";
import { useUploads } from "./useUploads";

/**
 * Documents (spec §2, client-only; issue 9): send several files at once (dropped or picked), each
 * with a title and a description, checked against the upload rules before a byte is sent and
 * uploaded resumably with a progress bar, pause, resume and cancel; then the client's documents with
 * their review status, and the reports the team sent in their own section.
 */
export function DocumentsPage() {
  return <Documents />;
}

function Documents() {
  const policy = useQuery(UploadPolicyDocument, { fetchPolicy: "cache-and-network" });
  const uploadPolicy = policy.data?.uploadPolicy ?? null;
  return (
    <section className="portal-page documents-page">
      <H1>Documents</H1>
      <p>Send your documents to the team for review, and find the reports the team sends you.</p>
      {policy.error && !policy.data ? (
        <Callout intent={Intent.DANGER} title="Uploads are not available right now">
          {policy.error.message}{" "}
          <Button variant="minimal" size="small" text="Try again" onClick={() => void policy.refetch()} />
        </Callout>
      ) : uploadPolicy ? (
        <SendDocuments policy={uploadPolicy} />
      ) : (
        <Spinner size={24} aria-label="Loading the upload rules" />
      )}
      <MyDocumentList fromTeam={false} heading="Your documents" policy={uploadPolicy} />
      <MyDocumentList fromTeam heading="From the team" policy={uploadPolicy} />
    </section>
  );
}

type Policy = UploadPolicyQuery["uploadPolicy"];

/** The drop zone, the chosen files and their uploads, and unfinished uploads from earlier. */
function SendDocuments({ policy }: { policy: Policy }) {
  const client = useApolloClient();
  const headingId = useId();
  // several uploads may finish together: each refresh of the list starts after the previous one
  const refreshList = useMemo(
    () => serialRefresh(() => client.refetchQueries({ include: [MyDocumentsDocument] })),
    [client],
  );
  const uploads = useUploads((item, uploaded) => {
    showToast({
      title: "Document uploaded",
      description: `"${uploaded?.title || item.title}" is waiting for review`,
      intent: Intent.SUCCESS,
    });
    refreshList();
  });
  return (
    <Card className="documents-send" aria-labelledby={headingId} role="region">
      <H2 id={headingId}>Send documents</H2>
      <p className={Classes.TEXT_MUTED}>
        Allowed types: {policy.allowedFileTypes.join(", ")}. Up to {formatBytes(policy.maxFileSize)} per file.
        An interrupted upload continues where it stopped when you add the same file again.
      </p>
      <DropZone
        multiple
        label="Choose files to upload"
        allowedFileTypes={policy.allowedFileTypes}
        onFiles={(files) => uploads.add(files)}
      />
      <UnfinishedUploads active={uploads.items.length} />
      <UploadList uploads={uploads} policy={policy} purpose={{ kind: "new" }} />
    </Card>
  );
}

/**
 * Uploads this browser started and did not finish (a reload, a closed tab): adding the same file
 * continues one; Discard deletes it on the server.
 */
function UnfinishedUploads({ active }: { active: number }) {
  const [list, setList] = useState<UnfinishedUpload[]>([]);
  useEffect(() => {
    // looked at again whenever the chosen files change: a resumed upload leaves the list when done
    void active;
    let live = true;
    void unfinishedUploads().then((found) => {
      if (live) setList(found);
    });
    return () => {
      live = false;
    };
  }, [active]);
  if (list.length === 0 || active > 0) return null;
  return (
    <Callout intent={Intent.PRIMARY} compact title="Unfinished uploads" className="documents-unfinished">
      <p>Add the same file again to continue where it stopped.</p>
      <ul>
        {list.map((u) => (
          <li key={u.key}>
            {u.title || u.fileName} ({u.fileName}
            {u.size ? `, ${formatBytes(u.size)}` : ""}), started {formatDateTime(u.startedAt)}{" "}
            <Button
              variant="minimal"
              size="small"
              text="Discard"
              aria-label={`Discard the unfinished upload of ${u.fileName}`}
              onClick={() =>
                void discardUnfinishedUpload(u).then(() => setList((l) => l.filter((x) => x.key !== u.key)))
              }
            />
          </li>
        ))}
      </ul>
    </Callout>
  );
}
