import type { Tx } from "@services/shared/db";
import { currentTraceContext } from "@services/shared/telemetry";
import type { EmailAttachment } from "./attachments";
import { DEFAULT_EMAIL_TEMPLATES } from "./defaultTemplates";
import type { MailContext } from "./mailContext";
import { sealLinkToken, withoutToken } from "./oneTimeLinks";
import { type EmailTemplateParts, type EmailVariables, renderEmailInLayout } from "./renderEmail";
import { assertCatalogued } from "./templateCatalog";

export interface QueueEmailProps {
  tx: Tx;
  /** the event that caused the message (part of the idempotency key) */
  eventId: string;
  /** a key of email_templates */
  templateKey: string;
  to: string;
  context: MailContext;
  /** the template's own variables; productName and supportPhone come from the context */
  variables: EmailVariables;
  /** files to send with the message, stored with it (an appointment's .ics: services/email/invitation.ts) */
  attachments?: EmailAttachment[];
  /** the parts to render instead of the stored template (an admin's test send of a draft) */
  template?: EmailTemplateParts;
  /**
   * the raw token of the one-time link among the variables (verification, reset, invitation): the
   * message is stored without it and with it sealed (./oneTimeLinks.ts)
   */
  oneTimeToken?: string;
}

/** Whether this call stored a new message (false: the same event had already queued it). */
export interface QueueEmailResult {
  queued: boolean;
}

/**
 * Renders a template from email_templates (the seeded default when the row is missing) in the
 * layout with the context's branding (renderEmailInLayout) and stores
 * the message, with its attachments if any, as queued in email_messages, inside the caller's
 * transaction, with the idempotency key `${eventId}:${templateKey}:${to}`: a message already stored
 * for that key is left alone. A one-time link's token (`oneTimeToken`) is stored sealed, not in the
 * bodies. The NOTIFY it sends wakes the senders when the transaction commits. While tracing is on,
 * the message keeps the active span's trace context, and its sending is a span of that trace.
 * @throws Error when the template exists nowhere or does not parse; database errors pass through.
 */
export async function queueEmail(props: QueueEmailProps): Promise<QueueEmailResult> {
  const { tx, eventId, templateKey, to, context } = props;
  // read with the context when the consumer asked for it (null: no stored row), else here
  const preloaded = props.template ?? context.templates?.get(templateKey);
  const stored =
    preloaded !== undefined
      ? preloaded
      : await tx.emailTemplate.findUnique({
          where: { key: templateKey },
          select: { subject: true, html: true, text: true },
        });
  const template = stored ?? DEFAULT_EMAIL_TEMPLATES.find((t) => t.key === templateKey);
  if (!template) throw new Error(`email template "${templateKey}" does not exist`);
  assertCatalogued(templateKey, Object.keys(props.variables));
  const rendered = await renderEmailInLayout(
    template,
    { productName: context.productName, supportPhone: context.supportPhone, ...props.variables },
    context,
    { draft: props.template !== undefined },
  );
  const attachments = props.attachments?.length ? JSON.stringify(props.attachments) : null;
  // a one-time link's token is not kept in the bodies: sealed beside them until the message goes
  const token = props.oneTimeToken;
  const kept = token
    ? {
        subject: withoutToken(rendered.subject, token),
        html: withoutToken(rendered.html, token),
        text: withoutToken(rendered.text, token),
      }
    : rendered;
  const sealedToken = token ? sealLinkToken(token) : null;
  const trace = currentTraceContext();
  // one round trip: the row, and the NOTIFY only when the row is new
  const inserted = await tx.$queryRaw<{ id: number }[]>`
    WITH inserted AS (
      INSERT INTO email_messages ("dedupeKey", "templateKey", "toAddress", subject, html, text, attachments,
        "linkTokenSealed", "oneTimeLink", traceparent, tracestate)
      VALUES (${`${eventId}:${templateKey}:${to}`}, ${templateKey}, ${to}, ${kept.subject}, ${kept.html},
        ${kept.text}, ${attachments}::jsonb, ${sealedToken}, ${token !== undefined},
        ${trace?.traceparent ?? null}, ${trace?.tracestate ?? null})
      ON CONFLICT DO NOTHING
      RETURNING id)
    SELECT id, pg_notify('email_messages', '')::text AS notified FROM inserted`;
  return { queued: inserted.length > 0 };
}
