import { useApolloClient, useMutation, useQuery } from "@apollo/client/react";
import {
  Button,
  Callout,
  Dialog,
  DialogBody,
  DialogFooter,
  FormGroup,
  Intent,
  TextArea,
} from "@blueprintjs/core";
import { zodResolver } from "@hookform/resolvers/zod";
import { KNOWN_FILE_TYPE_NAMES, REASON_MAX, rejectDocumentSchema } from "@schema/validation/document";
import { personName } from "@web/features/documents/documents";
import { DropZone, UploadList } from "@web/features/documents/UploadPanel";
import { useUploads } from "@web/features/documents/useUploads";
import {
  RejectDocumentDocument,
  type ReviewDocumentFieldsFragment,
  ReviewDocumentsDocument,
  UploadPolicyDocument,
} from "@web/generated/graphql";
import { showToast } from "@web/lib/toast";
import { useReturnFocus } from "@web/ui/hooks";
import { toastAnswer } from "@web/ui/mutationToast";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { ClientPicker, type PickedClient } from "./ClientPicker";

/** Until the upload rules have loaded: the types the portal can verify; the server has the last word. */
const FALLBACK_POLICY = {
  endpoint: "/api/uploads",
  maxFileSize: Number.MAX_SAFE_INTEGER,
  allowedFileTypes: KNOWN_FILE_TYPE_NAMES,
};

type RejectInput = z.input<typeof rejectDocumentSchema>;
type RejectValues = z.output<typeof rejectDocumentSchema>;

/** The reviewer's rejection: a required reason (the shared schema's message) the client will read. */
export function RejectDialog({
  document: doc,
  onClose,
  onDecided,
}: {
  document: ReviewDocumentFieldsFragment;
  onClose(): void;
  onDecided(updated: ReviewDocumentFieldsFragment | null): void;
}) {
  useReturnFocus();
  const id = useId();
  const [reject, state] = useMutation(RejectDocumentDocument, {
    refetchQueries: [ReviewDocumentsDocument],
    awaitRefetchQueries: true,
  });
  const form = useForm<RejectInput, unknown, RejectValues>({
    resolver: zodResolver(rejectDocumentSchema),
    defaultValues: { reason: "" },
  });
  const reason = form.watch("reason") ?? "";
  // Blueprint's TextArea takes the DOM ref as inputRef (its ref is the component)
  const { ref: reasonRef, ...reasonField } = form.register("reason");
  const problem = form.formState.errors.reason?.message;
  const submit = form.handleSubmit(async ({ reason: text }) => {
    try {
      const result = await reject({ variables: { id: doc.id, reason: text } });
      const answer = result.data?.rejectDocument;
      const ok = toastAnswer(
        answer,
        { title: "Document rejected", description: `${personName(doc.owner)} is told why by email` },
        "Failed to reject document",
      );
      if (ok) onDecided(answer?.__typename === "MutationRejectDocumentSuccess" ? answer.data : null);
      else if (answer?.__typename === "AppError" && answer.code === "CONFLICT") onDecided(null);
    } catch {
      toastAnswer(undefined, { title: "", description: "" }, "Failed to reject document");
    }
  });
  return (
    <Dialog isOpen title="Reject document" onClose={onClose}>
      <form onSubmit={submit} noValidate aria-label="Reject document">
        <DialogBody>
          <p>
            Reject "{doc.title}" from {personName(doc.owner)}? The client can send a corrected file.
          </p>
          <FormGroup
            label="Reason (the client reads it)"
            labelFor={id}
            intent={problem ? Intent.DANGER : Intent.NONE}
            helperText={problem ?? `${reason.length}/${REASON_MAX} · Ctrl+Enter rejects`}
          >
            <TextArea
              id={id}
              fill
              rows={4}
              autoFocus
              intent={problem ? Intent.DANGER : Intent.NONE}
              {...reasonField}
              inputRef={reasonRef}
              onKeyDown={(e) => {
                if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) void submit();
              }}
            />
          </FormGroup>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text="Back" onClick={onClose} />
              <Button type="submit" intent={Intent.DANGER} text="Reject document" loading={state.loading} />
            </>
          }
        />
      </form>
    </Dialog>
  );
}

/**
 * "Send a report to a client": pick the client (searching documentClients), choose the file, give
 * it a title and description, and upload it with tus (metadata clientId). The client finds it under
 * "From the team", approved at once.
 */
export function ReportDialog({ onClose }: { onClose(): void }) {
  useReturnFocus();
  const client = useApolloClient();
  const [recipient, setRecipient] = useState<PickedClient | null>(null);
  const [touched, setTouched] = useState(false);
  const uploads = useUploads((item) => {
    showToast({
      title: "Report sent",
      description: `"${item.title}" is in ${recipient ? personName(recipient) : "the client"}'s documents`,
      intent: Intent.SUCCESS,
    });
    void client.refetchQueries({ include: [ReviewDocumentsDocument] });
    onClose();
  });
  const busy = uploads.items.some((i) => i.phase === "uploading" || i.phase === "paused");
  // the upload rules (admins count as clients for them); the server checks again either way
  const policyQuery = useQuery(UploadPolicyDocument, { fetchPolicy: "cache-and-network" });
  const policy = policyQuery.data?.uploadPolicy ?? FALLBACK_POLICY;
  return (
    <Dialog
      isOpen
      title="Send a report to a client"
      onClose={busy ? undefined : onClose}
      canEscapeKeyClose={!busy}
      canOutsideClickClose={false}
    >
      <DialogBody>
        <ClientPicker
          label="Client"
          emptyText="Choose a client"
          value={recipient}
          onChange={(c) => {
            setRecipient(c);
            setTouched(true);
          }}
          error={touched && !recipient ? "Choose the client the report is for" : null}
          autoFocus
        />
        {uploads.items.length === 0 ? (
          <DropZone
            label="Choose the report's file"
            allowedFileTypes={policy.allowedFileTypes}
            onFiles={(files) => {
              setTouched(true);
              uploads.add(files.slice(0, 1));
            }}
          />
        ) : recipient ? (
          <UploadList
            uploads={uploads}
            policy={policy}
            purpose={{ kind: "report", clientId: recipient.id }}
          />
        ) : (
          <Callout intent={Intent.WARNING} compact>
            Choose the client first; then upload {uploads.items[0]?.file.name}.
          </Callout>
        )}
      </DialogBody>
      <DialogFooter actions={<Button text="Close" onClick={onClose} disabled={busy} />} />
    </Dialog>
  );
}
