import {
  EMAIL_STATUSES,
  emailLogFilterSchema,
  emailLogPageSchema,
  emailMessageIdSchema,
} from "@schema/validation/emailTemplates";
import { audit } from "@services/shared/audit";
import { idCursor } from "@services/shared/cursor";
import type { Db } from "@services/shared/db";
import { AppError } from "@services/shared/errors";
import type { EmailMessage, Prisma } from "@services/shared/generated/prisma/client";
import type { EmailStatus } from "@services/shared/generated/prisma/enums";
import { parse } from "@services/shared/validation";
import { parseAttachments } from "./attachments";
import { DEFAULT_EMAIL_TEMPLATES } from "./defaultTemplates";
import { redactTokens } from "./sendDueEmails";
import type { EmailActor } from "./templateAdmin";

// The delivery log (issue 12, manageEmails, checked by the caller): every message the portal sent or
// tried, from email_messages, filtered, in keyset pages (newest first, by id), each message viewable
// as sent; a failed one can be queued again; the last 24 hours counted by status.

/** One message in the log's list. */
export interface EmailMessageSummary {
  id: number;
  toAddress: string;
  templateKey: string | null;
  templateName: string | null;
  subject: string;
  status: EmailStatus;
  attempts: number;
  lastError: string | null;
  createdAt: Date;
  updatedAt: Date;
  sentAt: Date | null;
  nextAttemptAt: Date | null;
}

/** A file sent with a message, without its content. */
export interface EmailAttachmentSummary {
  filename: string;
  contentType: string;
  /** the content's length in bytes */
  size: number;
}

/** One message as sent: its bodies (one-time links' tokens redacted) and its attachments. */
export interface EmailMessageDetail extends EmailMessageSummary {
  html: string;
  text: string;
  /** whether it carried a one-time link (verification, reset, invitation): not resent once failed */
  oneTimeLink: boolean;
  attachments: EmailAttachmentSummary[];
  messageId: string | null;
}

/** One page of the log. */
export interface EmailMessagePage {
  nodes: EmailMessageSummary[];
  endCursor: string | null;
  hasNextPage: boolean;
}

/** Messages created in the last 24 hours, by status. */
export type EmailCounts = Record<EmailStatus, number>;

const NAMES = new Map(DEFAULT_EMAIL_TEMPLATES.map((t) => [t.key, t.name]));

function summary(row: EmailMessage): EmailMessageSummary {
  return {
    id: row.id,
    toAddress: row.toAddress,
    templateKey: row.templateKey,
    templateName: row.templateKey ? (NAMES.get(row.templateKey) ?? null) : null,
    subject: row.subject,
    status: row.status,
    attempts: row.attempts,
    lastError: row.lastError,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    sentAt: row.sentAt,
    nextAttemptAt: row.nextAttemptAt,
  };
}

const cursor = idCursor("m", () => new AppError("BAD_REQUEST", "Invalid cursor"));

/**
 * One page of the log, newest first: `filter` (status, template, part of the recipient, created
 * from/to), `first` messages (1 to 200, default 50) after the cursor `after`. The order is the id's,
 * so pages neither skip nor repeat a message while new ones arrive.
 * @throws AppError VALIDATION_FAILED for a bad filter or page size, BAD_REQUEST for a bad cursor.
 */
export async function listEmailMessages(props: {
  db: Db;
  filter?: unknown;
  first?: unknown;
  after?: unknown;
}): Promise<EmailMessagePage> {
  const filter = parse(emailLogFilterSchema, props.filter);
  const page = parse(emailLogPageSchema, { first: props.first, after: props.after });
  const before = page.after ? cursor.decode(page.after) : undefined;
  const where: Prisma.EmailMessageWhereInput = {
    ...(filter.status ? { status: filter.status } : {}),
    ...(filter.templateKey ? { templateKey: filter.templateKey } : {}),
    ...(filter.recipient ? { toAddress: { contains: filter.recipient, mode: "insensitive" } } : {}),
    ...(filter.from || filter.to
      ? {
          createdAt: {
            ...(filter.from ? { gte: filter.from } : {}),
            ...(filter.to ? { lt: filter.to } : {}),
          },
        }
      : {}),
    ...(before ? { id: { lt: before } } : {}),
  };
  const rows = await props.db.prisma.emailMessage.findMany({
    where,
    orderBy: { id: "desc" },
    take: page.first + 1,
  });
  const nodes = rows.slice(0, page.first).map(summary);
  const last = nodes.at(-1);
  return { nodes, endCursor: last ? cursor.encode(last.id) : null, hasNextPage: rows.length > page.first };
}

/**
 * One message as sent. Links' one-time tokens are shown redacted, also in a message not sent yet.
 * @throws AppError VALIDATION_FAILED for a malformed id, NOT_FOUND.
 */
export async function getEmailMessage(props: { db: Db; id: unknown }): Promise<EmailMessageDetail> {
  const id = parse(emailMessageIdSchema, props.id);
  const row = await props.db.prisma.emailMessage.findUnique({ where: { id } });
  if (!row) throw new AppError("NOT_FOUND", "Message not found");
  return {
    ...summary(row),
    html: redactTokens(row.html),
    text: redactTokens(row.text),
    oneTimeLink: row.oneTimeLink,
    messageId: row.messageId,
    attachments: parseAttachments(row.attachments).map((a) => ({
      filename: a.filename,
      contentType: a.contentType,
      size: Buffer.byteLength(a.content, a.encoding === "base64" ? "base64" : "utf8"),
    })),
  };
}

/** What a resend did. */
export interface ResendResult {
  /** false: the message was not failed (already queued again, or sent), and nothing changed */
  resent: boolean;
  message: EmailMessageSummary;
}

export const ONE_TIME_LINK_RESEND_MESSAGE =
  "This message carried a one-time link, which is not kept once a message has failed. Send a new one instead: a verification email, a password reset or a new invitation from the user's page.";

/**
 * Queues a failed message again (due at once, its attempts kept: the sender's retry policy counts
 * on from them) and wakes the senders; audited. Idempotent: a message that is not failed, one
 * already queued again included, is left as it is. A message that carried a one-time link is not
 * resent: its link was dropped when it failed (./oneTimeLinks.ts), and a new one is what helps.
 * @throws AppError VALIDATION_FAILED for a malformed id, NOT_FOUND, CONFLICT (a one-time link).
 */
export async function resendEmailMessage(props: {
  db: Db;
  actor: EmailActor;
  id: unknown;
}): Promise<ResendResult> {
  const id = parse(emailMessageIdSchema, props.id);
  return props.db.prisma.$transaction(async (tx) => {
    const [requeued] = await tx.$queryRaw<{ id: number }[]>`
      UPDATE email_messages SET status = 'queued', "nextAttemptAt" = NULL, "updatedAt" = now()
      WHERE id = ${id} AND status = 'failed' AND NOT "oneTimeLink"
      RETURNING id`;
    const row = await tx.emailMessage.findUnique({ where: { id } });
    if (!row) throw new AppError("NOT_FOUND", "Message not found");
    if (!requeued && row.status === "failed" && row.oneTimeLink) {
      throw new AppError("CONFLICT", ONE_TIME_LINK_RESEND_MESSAGE);
    }
    if (!requeued) return { resent: false, message: summary(row) };
    await tx.$queryRaw`SELECT pg_notify('email_messages', '')::text`;
    await audit(tx, {
      action: "email.resent",
      actorId: props.actor.id,
      targetType: "email_message",
      targetId: id,
      before: { status: "failed" },
      after: { status: "queued" },
      metadata: { to: row.toAddress, templateKey: row.templateKey, attempts: row.attempts },
    });
    return { resent: true, message: summary(row) };
  });
}

/** Messages created in the last 24 hours (as of `now`), by status, zeros included. @throws Prisma errors. */
export async function emailCountsLast24h(props: { db: Db; now?: Date }): Promise<EmailCounts> {
  const since = new Date((props.now ?? new Date()).getTime() - 24 * 60 * 60 * 1000);
  const groups = await props.db.prisma.emailMessage.groupBy({
    by: ["status"],
    where: { createdAt: { gte: since } },
    _count: { _all: true },
  });
  const counts = Object.fromEntries(EMAIL_STATUSES.map((s) => [s, 0])) as EmailCounts;
  for (const group of groups) counts[group.status] = group._count._all;
  return counts;
}
