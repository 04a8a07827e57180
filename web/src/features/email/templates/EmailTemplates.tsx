import { useMutation, useQuery } from "@apollo/client/react";
import "@web/features/email/email.css";
import {
  Button,
  Callout,
  Card,
  Classes,
  Code,
  Dialog,
  DialogBody,
  FormGroup,
  H1,
  H2,
  HTMLTable,
  InputGroup,
  Intent,
  NonIdealState,
  Spinner,
  Tag,
  TextArea,
} from "@blueprintjs/core";
import { Envelope, FloppyDisk, History, Reset, Undo } from "@blueprintjs/icons";
import { templatePartsSchema } from "@schema/validation/emailTemplates";
import { formatDateTime } from "@web/features/documents/documents";
import { EmailFrame } from "@web/features/email/EmailParts";
import {
  type EmailTemplateFieldsFragment,
  EmailTemplatePreviewDocument,
  EmailTemplatesDocument,
  EmailTemplateVersionsDocument,
  RestoreEmailTemplateVersionDocument,
  RevertEmailTemplateDocument,
  SendTestEmailDocument,
  UpdateEmailTemplateDocument,
} from "@web/generated/graphql";
import { ConfirmDialog } from "@web/ui/ConfirmDialog";
import { DataTable } from "@web/ui/DataTable";
import { useDebounced } from "@web/ui/hooks";
import { LoadError } from "@web/ui/LoadError";
import { runWithToast } from "@web/ui/mutationToast";
import { ScrollRegion } from "@web/ui/ScrollRegion";
import { useEffect, useId, useState } from "react";

/**
 * Email Templates (spec §2, manageEmails; issue 12): every email the portal sends; its subject, HTML
 * and text edited beside the variables it is offered, with a live preview filled with sample values
 * in a sandboxed frame; a save refused with the line and reason of each problem; "Send me a test";
 * revert to the default; the versions, each of which can be restored.
 */
export function EmailTemplatesPage() {
  return <EmailTemplates />;
}

function EmailTemplates() {
  const { data, loading, error, refetch } = useQuery(EmailTemplatesDocument, {
    fetchPolicy: "cache-and-network",
  });
  const templates = data?.emailTemplates;
  const [key, setKey] = useState<string | null>(null);
  const selected = templates?.find((t) => t.key === key) ?? templates?.[0];
  const listId = useId();
  return (
    <section className="portal-page email-templates-page">
      <H1>Email Templates</H1>
      {error && !templates ? (
        <LoadError
          title="The email templates could not be loaded"
          error={error}
          onRetry={() => void refetch().catch(() => undefined)}
        />
      ) : loading && !templates ? (
        <Spinner size={24} aria-label="Loading the email templates" />
      ) : templates && selected ? (
        <div className="email-templates-layout">
          <nav className="email-template-list" aria-labelledby={listId}>
            <H2 id={listId} className="email-list-heading">
              Emails the portal sends
            </H2>
            <ul>
              {templates.map((t) => (
                <li key={t.key}>
                  <Button
                    variant="minimal"
                    alignText="start"
                    fill
                    active={t.key === selected.key}
                    aria-current={t.key === selected.key ? "true" : undefined}
                    onClick={() => setKey(t.key)}
                    endIcon={t.isDefault ? undefined : <Tag minimal>Edited</Tag>}
                    text={t.name}
                  />
                </li>
              ))}
            </ul>
          </nav>
          <TemplateEditor key={selected.key} template={selected} />
        </div>
      ) : null}
    </section>
  );
}

type Parts = { subject: string; html: string; text: string };
type PartErrors = Partial<Record<keyof Parts, string>>;

const partsOf = (t: Parts): Parts => ({ subject: t.subject, html: t.html, text: t.text });

/** The zod schema's message for each part (the server checks the same schema). */
function partErrors(parts: Parts): PartErrors {
  const result = templatePartsSchema.safeParse(parts);
  if (result.success) return {};
  const errors: PartErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if ((field === "subject" || field === "html" || field === "text") && !errors[field]) {
      errors[field] = issue.message;
    }
  }
  return errors;
}

/** The template's two bodies, edited alike. */
const BODY_PARTS = [
  { part: "html", label: "HTML body", rows: 8 },
  { part: "text", label: "Text body", rows: 6 },
] as const;

/** One template's editor: the parts, the variables, the preview and the actions. */
function TemplateEditor({ template }: { template: EmailTemplateFieldsFragment }) {
  const ids = { subject: useId(), html: useId(), text: useId(), variables: useId(), preview: useId() };
  const [draft, setDraft] = useState<Parts>(() => partsOf(template));
  const [saveProblem, setSaveProblem] = useState<string | null>(null);
  const [confirmRevert, setConfirmRevert] = useState(false);
  const [historyOpen, setHistoryOpen] = useState(false);
  const refetchQueries = [
    EmailTemplatesDocument,
    { query: EmailTemplateVersionsDocument, variables: { key: template.key } },
  ];
  const [save, saving] = useMutation(UpdateEmailTemplateDocument, { refetchQueries });
  const [revert, reverting] = useMutation(RevertEmailTemplateDocument, { refetchQueries });
  const [sendTest, sending] = useMutation(SendTestEmailDocument);

  useEffect(() => {
    // the stored template changed (saved, reverted or restored): edit from it again
    setDraft({ subject: template.subject, html: template.html, text: template.text });
  }, [template.subject, template.html, template.text]);

  const errors = partErrors(draft);
  const valid = Object.keys(errors).length === 0;
  const settled = useDebounced(draft, 400);
  const settledValid = Object.keys(partErrors(settled)).length === 0;
  const preview = useQuery(EmailTemplatePreviewDocument, {
    variables: { input: { key: template.key, ...settled } },
    skip: !settledValid,
    fetchPolicy: "network-only",
  });
  const previewData = settledValid ? preview.data?.emailTemplatePreview : undefined;
  const problems = previewData?.problems ?? [];
  const dirty =
    draft.subject !== template.subject || draft.html !== template.html || draft.text !== template.text;
  const set = (part: keyof Parts, value: string) => {
    setSaveProblem(null);
    setDraft((earlier) => ({ ...earlier, [part]: value }));
  };
  const partProblem = (part: keyof Parts) =>
    errors[part] ??
    problems
      .filter((p) => p.part === part)
      .map((p) => p.message)
      .join(" · ");

  const handleSave = async () => {
    if (!valid) return;
    await runWithToast({
      run: async () =>
        (await save({ variables: { input: { key: template.key, ...draft } } })).data?.updateEmailTemplate,
      success: "MutationUpdateEmailTemplateSuccess",
      saved: () => {
        setSaveProblem(null);
        return { title: "Template saved", description: template.name };
      },
      failure: "Failed to save the template",
      onFailure: (message) => setSaveProblem(message ?? null),
    });
  };

  const handleSendTest = async () => {
    if (!valid) return;
    await runWithToast({
      run: async () =>
        (await sendTest({ variables: { input: { key: template.key, draft: dirty ? draft : null } } })).data
          ?.sendTestEmail,
      success: "MutationSendTestEmailSuccess",
      saved: (answer) => ({
        title: "Test email queued",
        description: `To ${answer.data.to}, with the sample values. Follow it on Email Testing.`,
      }),
      failure: "Failed to send the test",
      fallback: null,
    });
  };

  const handleRevert = async () => {
    await runWithToast({
      run: async () => (await revert({ variables: { key: template.key } })).data?.revertEmailTemplate,
      success: "MutationRevertEmailTemplateSuccess",
      saved: () => {
        setConfirmRevert(false);
        return { title: "Default wording restored", description: template.name };
      },
      failure: "Failed to revert the template",
      fallback: null,
    });
  };

  return (
    <div className="email-template-editor">
      <Card className="email-template-form">
        <H2>{template.name}</H2>
        <p className={Classes.TEXT_MUTED}>
          {template.isDefault ? "Default wording" : "Edited"}
          {template.updatedAt
            ? ` · last changed ${formatDateTime(template.updatedAt)}${template.updatedBy ? ` by ${template.updatedBy}` : ""}`
            : ""}
        </p>
        <form
          aria-label={`Edit the ${template.name} template`}
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void handleSave();
          }}
        >
          <FormGroup
            label="Subject"
            labelFor={ids.subject}
            intent={partProblem("subject") ? Intent.DANGER : Intent.NONE}
            helperText={partProblem("subject") || undefined}
          >
            <InputGroup
              id={ids.subject}
              value={draft.subject}
              intent={partProblem("subject") ? Intent.DANGER : Intent.NONE}
              onChange={(e) => set("subject", e.currentTarget.value)}
            />
          </FormGroup>
          {BODY_PARTS.map(({ part, label, rows }) => (
            <FormGroup
              key={part}
              label={label}
              labelFor={ids[part]}
              intent={partProblem(part) ? Intent.DANGER : Intent.NONE}
              helperText={partProblem(part) || undefined}
            >
              <TextArea
                id={ids[part]}
                className="email-code"
                fill
                rows={rows}
                spellCheck={false}
                value={draft[part]}
                intent={partProblem(part) ? Intent.DANGER : Intent.NONE}
                onChange={(e) => set(part, e.currentTarget.value)}
              />
            </FormGroup>
          ))}
          {saveProblem ? (
            <Callout intent={Intent.DANGER} compact role="alert" title="The template was not saved">
              {saveProblem}
            </Callout>
          ) : null}
          <div className="email-actions">
            <Button
              type="submit"
              intent={Intent.PRIMARY}
              icon={<FloppyDisk />}
              text="Save template"
              disabled={!valid || !dirty}
              loading={saving.loading}
            />
            <Button
              icon={<Envelope />}
              text="Send me a test"
              disabled={!valid}
              loading={sending.loading}
              onClick={() => void handleSendTest()}
            />
            <Button icon={<History />} text="Versions" onClick={() => setHistoryOpen(true)} />
            <Button
              icon={<Reset />}
              text="Revert to default"
              disabled={template.isDefault}
              onClick={() => setConfirmRevert(true)}
            />
            {dirty ? (
              <Button
                variant="minimal"
                icon={<Undo />}
                text="Discard changes"
                onClick={() => {
                  setSaveProblem(null);
                  setDraft(partsOf(template));
                }}
              />
            ) : null}
          </div>
        </form>
      </Card>
      <Card className="email-template-side">
        <section aria-labelledby={ids.variables}>
          <H2 id={ids.variables}>Variables</H2>
          <p className={Classes.TEXT_MUTED}>
            Write <Code>{"{{name}}"}</Code>; <Code>{"{{#name}}…{{/name}}"}</Code> shows its content only when
            the value is set. Values are escaped in the HTML body.
          </p>
          <DataTable
            scrollClassName="email-table-scroll"
            region="Variables of this template"
            className="email-variables"
            label="Variables of this template"
            columns={["Variable", "Meaning", "Sample"]}
            rows={template.variables}
          >
            {(v) => (
              <tr key={v.name}>
                <td>
                  <Code>{`{{${v.name}}}`}</Code>
                </td>
                <td>{v.description}</td>
                <td className="email-sample">{v.sample}</td>
              </tr>
            )}
          </DataTable>
        </section>
        <section aria-labelledby={ids.preview} className="email-preview">
          <H2 id={ids.preview}>Preview with sample values</H2>
          {!valid ? (
            <p className={Classes.TEXT_MUTED}>Fill in the subject, HTML and text to see the preview.</p>
          ) : problems.length > 0 ? (
            <Callout intent={Intent.DANGER} title="This template cannot be saved" role="status">
              <ul className="email-problems">
                {problems.map((p) => (
                  <li key={`${p.part}-${p.line}-${p.column}-${p.reason}`}>{p.message}</li>
                ))}
              </ul>
            </Callout>
          ) : preview.error && !previewData ? (
            <Callout intent={Intent.WARNING} compact>
              The preview could not be made: {preview.error.message}
            </Callout>
          ) : previewData?.rendered ? (
            <div aria-busy={preview.loading}>
              <p className="email-preview-subject">
                <span className={Classes.TEXT_MUTED}>Subject: </span>
                <strong>{previewData.rendered.subject}</strong>
              </p>
              <EmailFrame title="HTML preview" html={previewData.rendered.html} />
              <H2 className="email-preview-text-heading">Text</H2>
              <pre className="email-text">{previewData.rendered.text}</pre>
            </div>
          ) : (
            <Spinner size={20} aria-label="Rendering the preview" />
          )}
        </section>
      </Card>
      {confirmRevert ? (
        <ConfirmDialog
          title="Revert to the default wording?"
          confirmText="Revert"
          intent={Intent.WARNING}
          loading={reverting.loading}
          onConfirm={() => void handleRevert()}
          onClose={() => setConfirmRevert(false)}
        >
          <p>
            The subject, HTML and text of “{template.name}” go back to the portal's default. The current
            wording stays in the versions, so it can be restored.
          </p>
        </ConfirmDialog>
      ) : null}
      {historyOpen ? <VersionsDialog template={template} onClose={() => setHistoryOpen(false)} /> : null}
    </div>
  );
}

/** A template's versions, newest first, each one restorable. */
function VersionsDialog({ template, onClose }: { template: EmailTemplateFieldsFragment; onClose(): void }) {
  const { data, loading, error, refetch } = useQuery(EmailTemplateVersionsDocument, {
    variables: { key: template.key },
    fetchPolicy: "cache-and-network",
  });
  const [restore, restoring] = useMutation(RestoreEmailTemplateVersionDocument, {
    refetchQueries: [
      EmailTemplatesDocument,
      { query: EmailTemplateVersionsDocument, variables: { key: template.key } },
    ],
  });
  const [restoringId, setRestoringId] = useState<number | null>(null);
  const versions = data?.emailTemplateVersions;
  const current = versions?.[0];
  const CHANGE_LABELS: Record<string, string> = {
    original: "Before the first edit",
    edit: "Edited",
    revert: "Reverted to default",
    restore: "Restored",
  };

  const handleRestore = async (id: number, version: number) => {
    setRestoringId(id);
    await runWithToast({
      run: async () => (await restore({ variables: { versionId: id } })).data?.restoreEmailTemplateVersion,
      success: "MutationRestoreEmailTemplateVersionSuccess",
      saved: () => ({ title: `Version ${version} restored`, description: template.name }),
      failure: "Failed to restore the version",
      fallback: null,
    });
    setRestoringId(null);
  };

  return (
    <Dialog isOpen title={`Versions of “${template.name}”`} onClose={onClose} className="email-dialog">
      <DialogBody>
        {error && !versions ? (
          <LoadError title="The versions could not be loaded" error={error} onRetry={() => void refetch()} />
        ) : loading && !versions ? (
          <Spinner size={24} aria-label="Loading the versions" />
        ) : !versions || versions.length === 0 ? (
          <NonIdealState
            icon={<History />}
            title="No versions yet"
            description="Each save, revert and restore keeps a version here, with the wording before the first edit."
          />
        ) : (
          <ScrollRegion className="email-table-scroll" label="Versions">
            <HTMLTable compact className="email-versions" aria-label="Versions">
              <thead>
                <tr>
                  <th scope="col">Version</th>
                  <th scope="col">Change</th>
                  <th scope="col">When</th>
                  <th scope="col">By</th>
                  <th scope="col">Subject</th>
                  <th scope="col">
                    <span className={Classes.TEXT_MUTED}>Action</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {versions.map((v) => (
                  <tr key={v.id}>
                    <td>{v.version}</td>
                    <td>{CHANGE_LABELS[v.change] ?? v.change}</td>
                    <td className="email-nowrap">{formatDateTime(v.createdAt)}</td>
                    <td>{v.createdBy ?? "—"}</td>
                    <td className="email-subject-cell">{v.subject}</td>
                    <td>
                      {v.id === current?.id ? (
                        <Tag minimal intent={Intent.SUCCESS}>
                          Current
                        </Tag>
                      ) : (
                        <Button
                          size="small"
                          text="Restore"
                          aria-label={`Restore version ${v.version}`}
                          loading={restoring.loading && restoringId === v.id}
                          disabled={restoring.loading}
                          onClick={() => void handleRestore(v.id, v.version)}
                        />
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </ScrollRegion>
        )}
      </DialogBody>
    </Dialog>
  );
}
