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
  InputGroup,
  Intent,
  NonIdealState,
  Spinner,
  Tag,
} from "@blueprintjs/core";
import { Envelope, FloppyDisk, History, Reset, Undo } from "@blueprintjs/icons";
import { templatePartsSchema } from "@schema/validation/emailTemplates";
import { formatDateTime } from "@web/features/documents/documents";
import {
  type EmailTemplateFieldsFragment,
  EmailTemplatePreviewDocument,
  type EmailTemplatePreviewQuery,
  EmailTemplatesDocument,
  EmailTemplateVersionsDocument,
  RestoreEmailTemplateVersionDocument,
  RevertEmailTemplateDocument,
  SendTestEmailDocument,
  UpdateEmailTemplateDocument,
} from "@web/generated/graphql";
import { CodeEditor } from "@web/ui/CodeEditor";
import { ConfirmDialog } from "@web/ui/ConfirmDialog";
import { DataTable } from "@web/ui/DataTable";
import { useDebounced } from "@web/ui/hooks";
import { LoadError } from "@web/ui/LoadError";
import { runWithToast } from "@web/ui/mutationToast";
import { useSettingsForm } from "@web/ui/SettingsScreen";
import { useId, useMemo, useState } from "react";
import { Controller, useWatch } from "react-hook-form";
import { type PreviewWidth, TemplatePreview } from "./TemplatePreview";
import {
  locateSaveProblem,
  PART_LABELS,
  type PartProblem,
  partDiagnostics,
  type TemplatePartName,
  type TemplateParts,
} from "./templateDiagnostics";

/**
 * Email Templates (spec §2, manageEmails; issues 12 and 21): every email the portal sends; its
 * subject, and its HTML and text in code editors (highlighting, the template's variables completed
 * after "{{", each problem marked on its line) beside a live preview of the whole email with sample
 * values, at a desktop's or a phone's width; a save refused with the line and reason of each
 * problem; "Send me a test"; revert to the default; the versions, each of which can be restored.
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
  const [previewWidth, setPreviewWidth] = useState<PreviewWidth>("desktop");
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
          <div className="email-templates-work">
            <TemplateEditor
              key={selected.key}
              template={selected}
              previewWidth={previewWidth}
              onPreviewWidthChange={setPreviewWidth}
            />
          </div>
        </div>
      ) : null}
    </section>
  );
}

const partsOf = (t: TemplateParts): TemplateParts => ({ subject: t.subject, html: t.html, text: t.text });

/** The template's two bodies, each in a code editor. */
const BODY_PARTS = [
  { part: "html", language: "html", minLines: 12 },
  { part: "text", language: "text", minLines: 8 },
] as const;

/** Under the text body: an empty one is made from the HTML body when the email is sent. */
const TEXT_BODY_HINT = "Leave empty to make the plain-text part from the HTML body.";

type PreviewProblem = EmailTemplatePreviewQuery["emailTemplatePreview"]["problems"][number];

const NO_PROBLEMS: readonly PreviewProblem[] = [];

/** Props of {@link TemplateEditor}. */
interface TemplateEditorProps {
  template: EmailTemplateFieldsFragment;
  previewWidth: PreviewWidth;
  onPreviewWidthChange(width: PreviewWidth): void;
}

/**
 * One template's editor: the subject, the HTML and text bodies in code editors (react-hook-form,
 * checked with the shared schema) beside the live preview, the variables, and the actions.
 */
function TemplateEditor({ template, previewWidth, onPreviewWidthChange }: TemplateEditorProps) {
  const ids = { subject: useId(), variables: useId() };
  const [saveProblem, setSaveProblem] = useState<{ message: string; at: PartProblem | null } | null>(null);
  const [confirmRevert, setConfirmRevert] = useState(false);
  const [historyOpen, setHistoryOpen] = useState(false);
  const refetchQueries = [
    EmailTemplatesDocument,
    { query: EmailTemplateVersionsDocument, variables: { key: template.key } },
  ];
  const [save, saving] = useMutation(UpdateEmailTemplateDocument, { refetchQueries });
  const [revert, reverting] = useMutation(RevertEmailTemplateDocument, { refetchQueries });
  const [sendTest, sending] = useMutation(SendTestEmailDocument);

  // the stored template (saved, reverted or restored here or elsewhere): the form starts from it again
  const stored = useMemo(
    () => ({ subject: template.subject, html: template.html, text: template.text }),
    [template.subject, template.html, template.text],
  );
  const form = useSettingsForm<TemplateParts, TemplateParts, TemplateParts>({
    schema: templatePartsSchema,
    settings: stored,
    valuesOf: partsOf,
  });
  const errors = form.formState.errors;
  const [subject, html, text] = useWatch({ control: form.control, name: ["subject", "html", "text"] });
  const draft = useMemo(() => ({ subject, html, text }), [subject, html, text]);
  const valid = templatePartsSchema.safeParse(draft).success;
  const dirty = draft.subject !== stored.subject || draft.html !== stored.html || draft.text !== stored.text;

  // the preview follows the typing once it pauses; the last one stays shown while the next renders
  const settled = useDebounced(draft, 400);
  const settledValid = templatePartsSchema.safeParse(settled).success;
  const preview = useQuery(EmailTemplatePreviewDocument, {
    variables: { input: { key: template.key, ...settled } },
    skip: !settledValid,
    fetchPolicy: "network-only",
  });
  const previewData = settledValid ? (preview.data ?? preview.previousData)?.emailTemplatePreview : undefined;
  const problems = previewData?.problems ?? NO_PROBLEMS;
  const partProblem = (part: TemplatePartName) =>
    errors[part]?.message ??
    problems
      .filter((p) => p.part === part)
      .map((p) => p.message)
      .join(" · ");

  const htmlSchemaError = errors.html?.message;
  const textSchemaError = errors.text?.message;
  const saveAt = saveProblem?.at ?? null;
  const htmlDiagnostics = useMemo(
    () =>
      partDiagnostics({
        part: "html",
        text: settled.html,
        schemaError: htmlSchemaError,
        problems,
        saveProblem: saveAt,
      }),
    [settled.html, htmlSchemaError, problems, saveAt],
  );
  const textDiagnostics = useMemo(
    () =>
      partDiagnostics({
        part: "text",
        text: settled.text,
        schemaError: textSchemaError,
        problems,
        saveProblem: saveAt,
      }),
    [settled.text, textSchemaError, problems, saveAt],
  );
  const diagnostics = { html: htmlDiagnostics, text: textDiagnostics };

  const handleSave = form.handleSubmit(async (values) => {
    await runWithToast({
      run: async () =>
        (await save({ variables: { input: { key: template.key, ...values } } })).data?.updateEmailTemplate,
      success: "MutationUpdateEmailTemplateSuccess",
      saved: () => {
        setSaveProblem(null);
        return { title: "Template saved", description: template.name };
      },
      failure: "Failed to save the template",
      onFailure: (message) =>
        setSaveProblem(message ? { message, at: locateSaveProblem(message, values) } : null),
    });
  });

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

  const { ref: subjectRef, ...subjectField } = form.register("subject", {
    onChange: () => setSaveProblem(null),
  });

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
          onSubmit={(e) => void handleSave(e)}
        >
          <FormGroup
            label="Subject"
            labelFor={ids.subject}
            intent={partProblem("subject") ? Intent.DANGER : Intent.NONE}
            helperText={partProblem("subject") || undefined}
          >
            <InputGroup
              id={ids.subject}
              {...subjectField}
              inputRef={subjectRef}
              intent={partProblem("subject") ? Intent.DANGER : Intent.NONE}
            />
          </FormGroup>
          {BODY_PARTS.map(({ part, language, minLines }) => {
            const problem = partProblem(part);
            const hint = part === "text" ? TEXT_BODY_HINT : undefined;
            return (
              <FormGroup
                key={part}
                intent={problem ? Intent.DANGER : Intent.NONE}
                helperText={problem || hint}
              >
                <Controller
                  control={form.control}
                  name={part}
                  render={({ field }) => (
                    <CodeEditor
                      ref={field.ref}
                      value={field.value}
                      onChange={(value) => {
                        setSaveProblem(null);
                        field.onChange(value);
                      }}
                      onBlur={field.onBlur}
                      name={field.name}
                      label={PART_LABELS[part]}
                      description={problem || hint}
                      invalid={Boolean(problem)}
                      language={language}
                      variables={template.variables}
                      diagnostics={diagnostics[part]}
                      minLines={minLines}
                    />
                  )}
                />
              </FormGroup>
            );
          })}
          {saveProblem ? (
            <Callout intent={Intent.DANGER} compact role="alert" title="The template was not saved">
              {saveProblem.message}
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
                  form.reset(stored);
                }}
              />
            ) : null}
          </div>
        </form>
      </Card>
      <Card className="email-template-preview">
        <TemplatePreview
          preview={previewData}
          valid={valid}
          loading={preview.loading}
          error={preview.error?.message}
          width={previewWidth}
          onWidthChange={onPreviewWidthChange}
        />
      </Card>
      <Card className="email-template-variables">
        <section aria-labelledby={ids.variables}>
          <H2 id={ids.variables}>Variables</H2>
          <p className={Classes.TEXT_MUTED}>
            Write <Code>{"{{name}}"}</Code> (type <Code>{"{{"}</Code> in the HTML or text for the list);{" "}
            <Code>{"{{#name}}…{{/name}}"}</Code> shows its content only when the value is set. Values are
            escaped in the HTML body.
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
          <DataTable
            scrollClassName="email-table-scroll"
            region="Versions"
            className="email-versions"
            label="Versions"
            columns={["Version", "Change", "When", "By", "Subject"]}
            actions="Action"
            rows={versions}
          >
            {(v) => (
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
            )}
          </DataTable>
        )}
      </DialogBody>
    </Dialog>
  );
}
