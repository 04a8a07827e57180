import "@web/ui/toolbars.css";
import { useMutation, useQuery } from "@apollo/client/react";
import "@web/features/email/email.css";
import {
  Button,
  Callout,
  Card,
  Classes,
  Dialog,
  DialogBody,
  FormGroup,
  H1,
  H2,
  HTMLSelect,
  HTMLTable,
  InputGroup,
  Intent,
  NonIdealState,
  Spinner,
} from "@blueprintjs/core";
import { Envelope, Inbox, SendMessage } from "@blueprintjs/icons";
import { emailSchema } from "@schema/validation/user";
import { appendPage, dayRange, formatDateTime } from "@web/features/documents/documents";
import { EMAIL_STATUS_OPTIONS, EmailFrame, EmailStatusTag } from "@web/features/email/EmailParts";
import {
  EmailCountsDocument,
  type EmailLogFilter,
  EmailMessageDocument,
  type EmailMessageFieldsFragment,
  type EmailMessageStatus,
  EmailMessagesDocument,
  EmailTemplatesDocument,
  ResendEmailMessageDocument,
  SendTestEmailDocument,
} from "@web/generated/graphql";
import { CellText } from "@web/ui/CellText";
import { DataTable } from "@web/ui/DataTable";
import { DateRangeFields } from "@web/ui/DateRangeFields";
import { FilterBar, SearchField, SelectField } from "@web/ui/FilterFields";
import { useDebounced } from "@web/ui/hooks";
import { KeysetList, useLoadMore } from "@web/ui/KeysetList";
import { LoadError } from "@web/ui/LoadError";
import { runWithToast } from "@web/ui/mutationToast";
import { ClearFiltersButton, RefreshButton } from "@web/ui/ToolbarButtons";
import { useId, useRef, useState } from "react";

const PAGE_SIZE = 50;

/**
 * Email Testing (spec §2, manageEmails; issue 12): send any template with sample values to an
 * address; the delivery log of every message the portal sent or tried, filtered, in cursor pages,
 * each viewable as sent, a failed one resent; and the last 24 hours counted by status.
 */
export function EmailTestingPage() {
  return <EmailTesting />;
}

function EmailTesting() {
  return (
    <section className="portal-page email-testing-page">
      <H1>Email Testing</H1>
      <Counts />
      <TestSendForm />
      <DeliveryLog />
    </section>
  );
}

const COUNT_LABELS: [EmailMessageStatus, string][] = [
  ["sent", "Sent"],
  ["failed", "Failed"],
  ["queued", "Queued"],
  ["captured", "Captured"],
];

/** The last 24 hours by status, refreshed every 10 seconds. */
function Counts() {
  const headingId = useId();
  const { data, error } = useQuery(EmailCountsDocument, {
    fetchPolicy: "cache-and-network",
    pollInterval: 10_000,
  });
  const counts = data?.emailCounts;
  return (
    <section aria-labelledby={headingId}>
      <H2 id={headingId}>Last 24 hours</H2>
      {error && !counts ? (
        <p className={Classes.TEXT_MUTED}>The counts could not be loaded.</p>
      ) : (
        <ul className="email-counts">
          {COUNT_LABELS.map(([status, label]) => (
            <li key={status} className={`${Classes.CARD} email-count`}>
              <strong>{counts ? counts[status].toLocaleString("en-US") : "…"}</strong>
              {label}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** "Send a test": a template with its sample values to an address. */
function TestSendForm() {
  const ids = { heading: useId(), template: useId(), to: useId() };
  const templates =
    useQuery(EmailTemplatesDocument, { fetchPolicy: "cache-first" }).data?.emailTemplates ?? [];
  const [key, setKey] = useState("");
  const [to, setTo] = useState("");
  const [touched, setTouched] = useState(false);
  const [send, sending] = useMutation(SendTestEmailDocument, {
    refetchQueries: [EmailMessagesDocument, EmailCountsDocument],
  });
  const chosen = key || templates[0]?.key || "";
  const address = emailSchema.safeParse(to);
  const addressProblem = touched && !address.success ? address.error.issues[0]?.message : undefined;

  const handleSubmit = async () => {
    setTouched(true);
    if (!address.success || !chosen) return;
    await runWithToast({
      run: async () =>
        (await send({ variables: { input: { key: chosen, to: address.data } } })).data?.sendTestEmail,
      success: "MutationSendTestEmailSuccess",
      saved: (answer) => ({
        title: "Test email queued",
        description: `To ${answer.data.to}; it appears in the delivery log below.`,
      }),
      failure: "Failed to send the test",
      fallback: null,
    });
  };

  return (
    <Card className="email-section" aria-labelledby={ids.heading} role="region">
      <H2 id={ids.heading}>Send a test</H2>
      <form
        className="email-test-form"
        aria-label="Send a test email"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void handleSubmit();
        }}
      >
        <FormGroup label="Template" labelFor={ids.template}>
          <HTMLSelect
            id={ids.template}
            value={chosen}
            onChange={(e) => setKey(e.currentTarget.value)}
            options={templates.map((t) => ({ value: t.key, label: t.name }))}
          />
        </FormGroup>
        <FormGroup
          label="Send to"
          labelFor={ids.to}
          intent={addressProblem ? Intent.DANGER : Intent.NONE}
          helperText={addressProblem}
        >
          <InputGroup
            id={ids.to}
            type="email"
            placeholder="name@example.com"
            value={to}
            intent={addressProblem ? Intent.DANGER : Intent.NONE}
            onChange={(e) => setTo(e.currentTarget.value)}
            onBlur={() => setTouched(true)}
          />
        </FormGroup>
        <FormGroup>
          <Button
            type="submit"
            intent={Intent.PRIMARY}
            icon={<SendMessage />}
            text="Send test"
            loading={sending.loading}
          />
        </FormGroup>
      </form>
      <p className={Classes.TEXT_MUTED}>
        The template is filled with its sample values and goes through the normal queue.
      </p>
    </Card>
  );
}

interface LogFilterForm {
  status: string;
  templateKey: string;
  recipient: string;
  from: string;
  to: string;
}

const EMPTY_FILTER: LogFilterForm = { status: "", templateKey: "", recipient: "", from: "", to: "" };

function filterVariables(form: LogFilterForm): EmailLogFilter | null {
  const range = dayRange(form.from, form.to);
  if (range === null) return null;
  return {
    ...(form.status ? { status: form.status as EmailMessageStatus } : {}),
    ...(form.templateKey ? { templateKey: form.templateKey } : {}),
    ...(form.recipient.trim() ? { recipient: form.recipient.trim() } : {}),
    ...range,
  };
}

/** The delivery log: filters, a dense table, "Load more". */
function DeliveryLog() {
  const ids = {
    heading: useId(),
    status: useId(),
    template: useId(),
    recipient: useId(),
    from: useId(),
    to: useId(),
  };
  const [form, setForm] = useState<LogFilterForm>(EMPTY_FILTER);
  const [viewing, setViewing] = useState<number | null>(null);
  const settled = useDebounced(form);
  const filter = filterVariables(settled);
  const rangeProblem =
    filterVariables(form) === null ? "The start of a range must not be after its end" : undefined;
  const templates =
    useQuery(EmailTemplatesDocument, { fetchPolicy: "cache-first" }).data?.emailTemplates ?? [];
  const { data, loading, error, refetch, fetchMore } = useQuery(EmailMessagesDocument, {
    variables: { filter, first: PAGE_SIZE },
    skip: filter === null,
    fetchPolicy: "cache-and-network",
    notifyOnNetworkStatusChange: true,
  });
  const page = filter === null ? undefined : data?.emailMessages;
  const messages = page?.nodes ?? [];
  const filtered = JSON.stringify(form) !== JSON.stringify(EMPTY_FILTER);
  const set = (key: keyof LogFilterForm, value: string) =>
    setForm((earlier) => ({ ...earlier, [key]: value }));

  const handleRefresh = () => void refetch().catch(() => undefined);
  const more = useLoadMore("More messages could not be loaded");
  const handleLoadMore = () => {
    if (!page?.endCursor || filter === null) return;
    const after = page.endCursor;
    void more.load(() =>
      fetchMore({
        variables: { filter, first: PAGE_SIZE, after },
        updateQuery: (earlier, { fetchMoreResult }) => ({
          emailMessages: appendPage(earlier.emailMessages, fetchMoreResult.emailMessages),
        }),
      }),
    );
  };

  return (
    <section className="email-section" aria-labelledby={ids.heading}>
      <H2 id={ids.heading}>Delivery log</H2>
      <FilterBar className="email-log-filters" label="Filter the delivery log">
        <SelectField
          label="Status"
          id={ids.status}
          value={form.status}
          onChange={(value) => set("status", value)}
          options={[{ value: "", label: "Every status" }, ...EMAIL_STATUS_OPTIONS]}
        />
        <SelectField
          label="Template"
          id={ids.template}
          value={form.templateKey}
          onChange={(value) => set("templateKey", value)}
          options={[
            { value: "", label: "Every template" },
            ...templates.map((t) => ({ value: t.key, label: t.name })),
          ]}
        />
        <SearchField
          label="Recipient contains"
          id={ids.recipient}
          value={form.recipient}
          onChange={(value) => set("recipient", value)}
        />
        <DateRangeFields ids={ids} from={form.from} to={form.to} problem={rangeProblem} onChange={set} />
        <FormGroup>
          <ClearFiltersButton disabled={!filtered} onClick={() => setForm(EMPTY_FILTER)} />
        </FormGroup>
      </FilterBar>
      <div className="email-log-toolbar">
        <span aria-live="polite">
          {page
            ? `${messages.length} ${messages.length === 1 ? "message" : "messages"} shown${page.hasNextPage ? ", more to load" : ""}`
            : ""}
        </span>
        <RefreshButton
          loading={loading && Boolean(page)}
          disabled={filter === null}
          onClick={handleRefresh}
        />
      </div>
      <KeysetList
        error={page ? undefined : error}
        errorTitle="The delivery log could not be loaded"
        onRetry={handleRefresh}
        idle={filter === null}
        loading={!page}
        loadingLabel="Loading the delivery log"
        rows={messages}
        empty={
          <NonIdealState
            icon={<Inbox />}
            title="No messages"
            description={
              filtered
                ? "No message matches these filters."
                : "Messages appear here as soon as the portal queues them."
            }
          />
        }
        more={
          page?.hasNextPage ? { text: "Load more", loading: more.loading, onClick: handleLoadMore } : null
        }
      >
        {(rows) => <LogTable messages={rows} onView={setViewing} />}
      </KeysetList>
      {viewing !== null ? <MessageDialog id={viewing} onClose={() => setViewing(null)} /> : null}
    </section>
  );
}

/** The messages as a dense table. */
function LogTable({
  messages,
  onView,
}: {
  messages: readonly EmailMessageFieldsFragment[];
  onView(id: number): void;
}) {
  return (
    <DataTable
      scrollClassName="email-table-scroll"
      region="Delivery log"
      className="email-log-table"
      label="Delivery log"
      columns={["Created", "Recipient", "Template", "Subject", "Status", "Attempts", "Last error"]}
      actions
      rows={messages}
    >
      {(m) => (
        <tr key={m.id}>
          <td className="email-nowrap">{formatDateTime(m.createdAt)}</td>
          <td>
            <CellText width="wide">{m.toAddress}</CellText>
          </td>
          <td>{m.templateName ?? m.templateKey ?? "—"}</td>
          <td className="email-subject-cell">{m.subject}</td>
          <td>
            <EmailStatusTag status={m.status} />
            {m.sentAt ? <div className={Classes.TEXT_MUTED}>{formatDateTime(m.sentAt)}</div> : null}
          </td>
          <td>{m.attempts}</td>
          <td className="email-error-cell">{m.lastError ?? ""}</td>
          <td>
            <Button
              size="small"
              icon={<Envelope />}
              text="View"
              aria-label={`View the message to ${m.toAddress}: ${m.subject}`}
              onClick={() => onView(m.id)}
            />
          </td>
        </tr>
      )}
    </DataTable>
  );
}

/** One message as sent: its details, HTML in a sandboxed frame, text, attachments; resend if failed. */
function MessageDialog({ id, onClose }: { id: number; onClose(): void }) {
  const { data, loading, error, refetch } = useQuery(EmailMessageDocument, {
    variables: { id },
    fetchPolicy: "network-only",
  });
  const [resend, resending] = useMutation(ResendEmailMessageDocument, {
    refetchQueries: [EmailMessagesDocument, EmailCountsDocument],
  });
  const detail = data?.emailMessage;
  const message = detail?.message;
  // the Resend button goes once the message is queued again: focus stays in the dialog
  const facts = useRef<HTMLTableElement>(null);

  const handleResend = async () => {
    await runWithToast({
      run: async () => (await resend({ variables: { id } })).data?.resendEmailMessage,
      success: "MutationResendEmailMessageSuccess",
      saved: (answer) => ({
        title: answer.data.resent ? "Message queued again" : "The message was not failed; nothing changed",
        intent: answer.data.resent ? Intent.SUCCESS : Intent.WARNING,
      }),
      after: () => {
        facts.current?.focus();
        void refetch().catch(() => undefined);
      },
      failure: "Failed to resend the message",
      fallback: null,
    });
  };

  return (
    <Dialog isOpen title={message ? message.subject : "Message"} onClose={onClose} className="email-dialog">
      <DialogBody>
        {error && !detail ? (
          <LoadError title="The message could not be loaded" error={error} onRetry={() => void refetch()} />
        ) : loading && !detail ? (
          <Spinner size={24} aria-label="Loading the message" />
        ) : detail && message ? (
          <>
            <HTMLTable
              compact
              className="email-message-facts"
              aria-label="About this message"
              ref={facts}
              tabIndex={-1}
            >
              <tbody>
                <tr>
                  <th scope="row">To</th>
                  <td>{message.toAddress}</td>
                </tr>
                <tr>
                  <th scope="row">Template</th>
                  <td>{message.templateName ?? message.templateKey ?? "—"}</td>
                </tr>
                <tr>
                  <th scope="row">Status</th>
                  <td>
                    <EmailStatusTag status={message.status} /> after {message.attempts}{" "}
                    {message.attempts === 1 ? "attempt" : "attempts"}
                  </td>
                </tr>
                <tr>
                  <th scope="row">Created</th>
                  <td>{formatDateTime(message.createdAt)}</td>
                </tr>
                {message.sentAt ? (
                  <tr>
                    <th scope="row">Sent</th>
                    <td>{formatDateTime(message.sentAt)}</td>
                  </tr>
                ) : null}
                {message.lastError ? (
                  <tr>
                    <th scope="row">Last error</th>
                    <td className="email-error-cell">{message.lastError}</td>
                  </tr>
                ) : null}
                <tr>
                  <th scope="row">Attachments</th>
                  <td>
                    {detail.attachments.length === 0
                      ? "None"
                      : detail.attachments
                          .map((a) => `${a.filename} (${a.contentType.split(";")[0]}, ${a.size} bytes)`)
                          .join(", ")}
                  </td>
                </tr>
              </tbody>
            </HTMLTable>
            {message.status === "failed" && detail.oneTimeLink ? (
              <Callout intent={Intent.DANGER} compact className="email-section">
                This message could not be delivered. Its one-time link is not kept once a message has failed:
                send a new verification email, password reset or invitation from the user's page.
              </Callout>
            ) : message.status === "failed" ? (
              <Callout intent={Intent.DANGER} compact className="email-section">
                This message could not be delivered.{" "}
                <Button
                  intent={Intent.PRIMARY}
                  size="small"
                  icon={<SendMessage />}
                  text="Resend"
                  loading={resending.loading}
                  onClick={() => void handleResend()}
                />
              </Callout>
            ) : null}
            <H2 className="email-preview-text-heading">HTML</H2>
            <EmailFrame title="The message's HTML" html={detail.html} />
            <H2 className="email-preview-text-heading">Text</H2>
            <pre className="email-text">{detail.text}</pre>
            <p className={Classes.TEXT_MUTED}>One-time links are shown with their token redacted.</p>
          </>
        ) : null}
      </DialogBody>
    </Dialog>
  );
}
