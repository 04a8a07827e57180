import { config } from "../shared/config";
import type { Db } from "../shared/db";
import { logger } from "../shared/logger";
import { parseAttachments } from "./attachments";
import { type MailTransport, type OutgoingMail, smtpResponseCode } from "./mailTransport";

/** How failed sends are retried. */
export interface RetryPolicy {
  /** delay after the first failure; each further failure doubles it (default 30 s) */
  baseMs: number;
  /** longest delay between two attempts (default 1 hour) */
  maxMs: number;
  /** attempts before a message is marked failed (default 8) */
  maxAttempts: number;
}

/** The default retry policy: 30 s, 1 min, 2 min ... up to 1 hour apart, 8 attempts (about 2 hours). */
export const DEFAULT_RETRY: RetryPolicy = { baseMs: 30_000, maxMs: 3_600_000, maxAttempts: 8 };

/** The wait after the `attempts`-th failed attempt (1-based): exponential, capped. */
export function retryDelayMs(policy: RetryPolicy, attempts: number): number {
  return Math.min(policy.baseMs * 2 ** Math.max(0, Math.min(attempts - 1, 30)), policy.maxMs);
}

export interface SendDueEmailsProps {
  db: Db;
  /** null: keep the messages, marked captured, instead of sending them */
  transport: MailTransport | null;
  /** sender address; default `"{fromName}" <{fromAddress}>` from email_settings */
  from?: string;
  retry?: RetryPolicy;
  /** messages claimed at once (default 20) */
  batchSize?: number;
  /** how long a claimed message is reserved for this sender before another may try (default 2 min) */
  leaseMs?: number;
}

/** What one batch did. */
export interface SendDueEmailsResult {
  claimed: number;
  sent: number;
  captured: number;
  /** failed attempts (retried later or, after the last attempt, marked failed) */
  failed: number;
}

interface ClaimedRow {
  id: number;
  toAddress: string;
  subject: string;
  html: string;
  text: string;
  attachments: unknown;
  attempts: number;
}

async function senderAddress(db: Db, from: string | undefined): Promise<OutgoingMail["from"]> {
  if (from) return from;
  const settings = await db.prisma.emailSettings.findUnique({ where: { id: 1 } });
  return {
    name: settings?.fromName ?? "Receivable Services & Consulting",
    address: settings?.fromAddress ?? "no-reply@portal.localhost",
  };
}

/** Replaces the value of every `token=` parameter in links with "redacted". */
export function redactTokens(body: string): string {
  return body.replace(/([?&](?:amp;)?token(?:=|&#x3D;))[^"'&\s<>]+/gi, "$1redacted");
}

/**
 * Sends one batch of due messages (status queued, nextAttemptAt unset or past). Messages are
 * claimed with FOR UPDATE SKIP LOCKED and reserved for `leaseMs`, so several senders never take
 * the same message; each is then sent outside any transaction and marked sent (with the server's
 * message id), or given attempts+1, lastError and a later nextAttemptAt, or marked failed after the
 * last attempt or a permanent (5xx) SMTP refusal. With no transport, or email disabled in
 * email_settings, the claimed messages are marked captured and kept.
 * @throws when the database refuses the claim or an update.
 */
export async function sendDueEmails(props: SendDueEmailsProps): Promise<SendDueEmailsResult> {
  const { db } = props;
  const retry = props.retry ?? DEFAULT_RETRY;
  const batchSize = props.batchSize ?? 20;
  const leaseMs = props.leaseMs ?? 120_000;
  const result: SendDueEmailsResult = { claimed: 0, sent: 0, captured: 0, failed: 0 };
  const log = logger("email.sender");

  const settings = await db.prisma.emailSettings.findUnique({ where: { id: 1 }, select: { enabled: true } });
  if (props.transport === null || settings?.enabled === false) {
    const captured = await db.prisma.$queryRaw<{ toAddress: string; subject: string; text: string }[]>`
      UPDATE email_messages SET status = 'captured', "nextAttemptAt" = NULL, "updatedAt" = now()
      WHERE id IN (
        SELECT id FROM email_messages
        WHERE status = 'queued' AND ("nextAttemptAt" IS NULL OR "nextAttemptAt" <= now())
        ORDER BY id LIMIT ${batchSize}
        FOR UPDATE SKIP LOCKED)
      RETURNING "toAddress", subject, text`;
    // With no SMTP server (the embedded default of `make start`), a developer reads the mail, links
    // included, in the log; never outside development.
    if (config().NODE_ENV === "development") {
      for (const mail of captured) {
        log.info(
          { to: mail.toAddress, subject: mail.subject, text: mail.text },
          "email captured (no SMTP_URL)",
        );
      }
    }
    return { ...result, claimed: captured.length, captured: captured.length };
  }
  const transport = props.transport;

  const rows = await db.prisma.$queryRaw<ClaimedRow[]>`
    UPDATE email_messages
    SET "nextAttemptAt" = now() + ${leaseMs}::int * interval '1 millisecond', "updatedAt" = now()
    WHERE id IN (
      SELECT id FROM email_messages
      WHERE status = 'queued' AND ("nextAttemptAt" IS NULL OR "nextAttemptAt" <= now())
      ORDER BY "nextAttemptAt" NULLS FIRST, id LIMIT ${batchSize}
      FOR UPDATE SKIP LOCKED)
    RETURNING id, "toAddress", subject, html, text, attachments, attempts`;
  result.claimed = rows.length;
  if (rows.length === 0) return result;

  const from = await senderAddress(db, props.from);
  for (const row of rows) {
    try {
      const { messageId } = await transport.send({
        from,
        to: row.toAddress,
        subject: row.subject,
        html: row.html,
        text: row.text,
        attachments: parseAttachments(row.attachments),
      });
      await db.prisma.emailMessage.update({
        where: { id: row.id },
        data: {
          status: "sent",
          // The log keeps what was sent, but not the live one-time links it carried.
          html: redactTokens(row.html),
          text: redactTokens(row.text),
          messageId,
          sentAt: new Date(),
          attempts: { increment: 1 },
          lastError: null,
          nextAttemptAt: null,
        },
      });
      result.sent++;
    } catch (err) {
      const attempts = row.attempts + 1;
      const code = smtpResponseCode(err);
      const permanent = code !== undefined && code >= 500;
      const final = permanent || attempts >= retry.maxAttempts;
      const message = (err instanceof Error ? err.message : String(err)).slice(0, 1000);
      await db.prisma.emailMessage.update({
        where: { id: row.id },
        data: {
          attempts,
          lastError: message,
          status: final ? "failed" : "queued",
          nextAttemptAt: final ? null : new Date(Date.now() + retryDelayMs(retry, attempts)),
        },
      });
      result.failed++;
      log[final ? "error" : "warn"](
        { emailId: row.id, attempts, smtpCode: code, err: message },
        final ? "email could not be sent; marked failed" : "email not sent; will retry",
      );
    }
  }
  return result;
}
