import { ATTR_SERVER_ADDRESS, ATTR_SERVER_PORT } from "@opentelemetry/semantic-conventions";
import { config } from "@services/shared/config";
import type { Db } from "@services/shared/db";
import { logger } from "@services/shared/logger";
import { contextOf, inSpan, SpanKind, tracingEnabled } from "@services/shared/telemetry";
import { parseAttachments } from "./attachments";
import { type MailTransport, type OutgoingMail, queuedMessageId, smtpResponseCode } from "./mailTransport";
import { openLinkToken, withToken } from "./oneTimeLinks";

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

/** A queued message claimed for sending. */
export interface ClaimedEmail {
  id: number;
  toAddress: string;
  subject: string;
  html: string;
  text: string;
  attachments: unknown;
  attempts: number;
  /** the one-time link's token, sealed; the bodies say "redacted" in its place (./oneTimeLinks.ts) */
  linkTokenSealed: string | null;
  /** the trace context of the span that queued it (null: not traced) */
  traceparent: string | null;
  tracestate: string | null;
}

/** Replaces the value of every `token=` parameter in links with "redacted". */
export function redactTokens(body: string): string {
  return body.replace(/([?&](?:amp;)?token(?:=|&#x3D;))[^"'&\s<>]+/gi, "$1redacted");
}

/**
 * Marks up to `limit` due messages (status queued, nextAttemptAt unset or past) captured, claimed
 * with FOR UPDATE SKIP LOCKED, and keeps them: for a portal without SMTP, or with email disabled in
 * email_settings, without the sealed token of a one-time link (the kept message holds no usable
 * link). In development each is printed to the log, links included. Answers how many.
 * @throws when the database refuses the update.
 */
export async function captureDueEmails(props: { db: Db; limit: number }): Promise<number> {
  // the sealed one-time token goes with the capture: the kept message holds no usable link
  const captured = await props.db.prisma.$queryRaw<
    { toAddress: string; subject: string; text: string; linkTokenSealed: string | null }[]
  >`
    WITH due AS (
      SELECT id, "linkTokenSealed" FROM email_messages
      WHERE status = 'queued' AND ("nextAttemptAt" IS NULL OR "nextAttemptAt" <= now())
      ORDER BY id LIMIT ${props.limit}
      FOR UPDATE SKIP LOCKED)
    UPDATE email_messages AS m
    SET status = 'captured', "nextAttemptAt" = NULL, "linkTokenSealed" = NULL, "updatedAt" = now()
    FROM due WHERE m.id = due.id
    RETURNING m."toAddress", m.subject, m.text, due."linkTokenSealed"`;
  // With no SMTP server (the embedded default of `make start`), a developer reads the mail, links
  // included, in the log; never outside development.
  if (config().NODE_ENV === "development") {
    const log = logger("email.sender");
    for (const mail of captured) {
      const text = mail.linkTokenSealed ? openedText(mail.text, mail.linkTokenSealed) : mail.text;
      log.info({ to: mail.toAddress, subject: mail.subject, text }, "email captured (no SMTP_URL)");
    }
  }
  return captured.length;
}

/** `text` with its one-time link's token put back; unchanged when the seal does not open. */
function openedText(text: string, sealed: string): string {
  try {
    return withToken(text, openLinkToken(sealed));
  } catch {
    return text;
  }
}

/** The SMTP server of email_settings as stored (the password still sealed). */
export interface StoredSmtpServer {
  host: string;
  /** null: the usual port of the security */
  port: number | null;
  security: "none" | "starttls" | "tls";
  user: string | null;
  passwordSealed: string | null;
}

/** What one claim answers: the messages it took, and email_settings as they are now. */
export interface Claim {
  /**
   * false: nothing was claimed, because email is switched off in email_settings, or the claim
   * needed the settings' SMTP server and none is set (the messages are to be captured)
   */
  enabled: boolean;
  /** `"{fromName}" <{fromAddress}>` of email_settings */
  from: { name: string; address: string };
  /** the Reply-To of email_settings, if any */
  replyTo: string | null;
  /** the SMTP server of email_settings, if a host is set */
  smtp: StoredSmtpServer | null;
  emails: ClaimedEmail[];
}

type SettingsColumns = {
  enabled: boolean;
  fromName: string | null;
  fromAddress: string | null;
  replyTo: string | null;
  smtpHost: string | null;
  smtpPort: number | null;
  smtpSecurity: "none" | "starttls" | "tls" | null;
  smtpUser: string | null;
  smtpPasswordSealed: string | null;
};

type ClaimRow = SettingsColumns & (ClaimedEmail | { [K in keyof ClaimedEmail]: null });

/**
 * Reads email_settings and, when email is enabled there (and, with `needsSmtpSettings`, an SMTP host
 * is set there), claims up to `limit` due messages (status queued, nextAttemptAt unset or past,
 * retries first) with FOR UPDATE SKIP LOCKED, reserving them for `leaseMs` by moving their
 * nextAttemptAt, all in one statement (the settings are read at use, without a round trip of their
 * own). The statement commits before the answer, so several senders in several processes never take
 * the same message, and a message whose sender died is due again when its lease ends.
 * @throws when the database refuses the claim.
 */
export async function claimDueEmails(props: {
  db: Db;
  limit: number;
  leaseMs: number;
  /** claim only when email_settings names an SMTP host (a sender without SMTP_URL) */
  needsSmtpSettings?: boolean;
}): Promise<Claim> {
  const needsSmtp = props.needsSmtpSettings ?? false;
  const rows = await props.db.prisma.$queryRaw<ClaimRow[]>`
    WITH settings AS (
      SELECT coalesce(e.enabled, true) AS enabled, e."fromName", e."fromAddress", e."replyTo",
        e."smtpHost", e."smtpPort", e."smtpSecurity"::text AS "smtpSecurity", e."smtpUser", e."smtpPasswordSealed"
      FROM (SELECT 1) AS one LEFT JOIN email_settings AS e ON e.id = 1
    ), claimed AS (
      UPDATE email_messages
      SET "nextAttemptAt" = now() + ${props.leaseMs}::int * interval '1 millisecond', "updatedAt" = now()
      WHERE (SELECT enabled AND (NOT ${needsSmtp}::boolean OR "smtpHost" IS NOT NULL) FROM settings) AND id IN (
        SELECT id FROM email_messages
        WHERE status = 'queued' AND ("nextAttemptAt" IS NULL OR "nextAttemptAt" <= now())
        ORDER BY "nextAttemptAt" NULLS FIRST, id LIMIT ${props.limit}
        FOR UPDATE SKIP LOCKED)
      RETURNING id, "toAddress", subject, html, text, attachments, attempts, "linkTokenSealed", traceparent,
        tracestate
    )
    SELECT s.*, c.id, c."toAddress", c.subject, c.html, c.text, c.attachments, c.attempts, c."linkTokenSealed",
      c.traceparent, c.tracestate
    FROM settings AS s LEFT JOIN claimed AS c ON true
    ORDER BY c.id`;
  const [first] = rows;
  const emails: ClaimedEmail[] = [];
  for (const row of rows) {
    if (row.id === null) continue;
    const { id, toAddress, subject, html, text, attachments, attempts, linkTokenSealed } = row;
    const { traceparent, tracestate } = row;
    emails.push({
      id,
      toAddress,
      subject,
      html,
      text,
      attachments,
      attempts,
      linkTokenSealed,
      traceparent,
      tracestate,
    });
  }
  const host = first?.smtpHost ?? null;
  return {
    enabled: first?.enabled !== false && (!needsSmtp || host !== null),
    from: {
      name: first?.fromName ?? "Receivable Services & Consulting",
      address: first?.fromAddress ?? "no-reply@portal.localhost",
    },
    replyTo: first?.replyTo ?? null,
    smtp:
      host === null
        ? null
        : {
            host,
            port: first?.smtpPort ?? null,
            security: first?.smtpSecurity ?? "starttls",
            user: first?.smtpUser ?? null,
            passwordSealed: first?.smtpPasswordSealed ?? null,
          },
    emails,
  };
}

/**
 * Hands a message to the transport inside a span (`smtp send`, a client's) of the trace that queued
 * it, with the SMTP server's address and the reply code of a refusal.
 */
function sendTraced(
  transport: MailTransport,
  mail: OutgoingMail,
  email: ClaimedEmail,
): Promise<{ messageId: string }> {
  return inSpan(
    {
      name: "smtp send",
      kind: SpanKind.CLIENT,
      parent: contextOf(email),
      attributes: {
        "network.protocol.name": "smtp",
        ...(transport.server
          ? { [ATTR_SERVER_ADDRESS]: transport.server.address, [ATTR_SERVER_PORT]: transport.server.port }
          : {}),
        "portal.email.id": email.id,
        "portal.email.attempt": email.attempts + 1,
      },
    },
    async (span) => {
      try {
        return await transport.send(mail);
      } catch (err) {
        const code = smtpResponseCode(err);
        if (code !== undefined) span?.setAttribute("smtp.response.code", code);
        throw err;
      }
    },
  );
}

/** What became of one claimed message. */
export type DeliveryOutcome = "sent" | "retry" | "failed";

export interface DeliverEmailProps {
  db: Db;
  transport: MailTransport;
  email: ClaimedEmail;
  from: OutgoingMail["from"];
  /** the Reply-To of every message (email_settings.replyTo) */
  replyTo?: string | null;
  retry?: RetryPolicy;
}

/**
 * Sends one claimed message, outside any transaction, its one-time link's token (sealed beside the
 * bodies) put back into the links, and records the outcome: sent (with the server's message id, its
 * links' tokens redacted and the sealed token dropped), or attempts+1, lastError and a later
 * nextAttemptAt (retry), or failed (the sealed token dropped) after the last attempt or a permanent
 * (5xx) SMTP refusal; a token that cannot be unsealed fails the message at once. A
 * connection that died mid-send is an ordinary failed attempt, retried with backoff.
 * @throws when the database refuses the update (the message is due again when its lease ends).
 */
export async function deliverClaimedEmail(props: DeliverEmailProps): Promise<DeliveryOutcome> {
  const { db, email } = props;
  const retry = props.retry ?? DEFAULT_RETRY;
  let token: string | undefined;
  try {
    token = email.linkTokenSealed === null ? undefined : openLinkToken(email.linkTokenSealed);
  } catch (err) {
    // sealed under another key (another SESSION_SECRET): the link can never be sent
    const message = `The one-time link could not be opened (${err instanceof Error ? err.message : String(err)})`;
    await db.prisma.emailMessage.update({
      where: { id: email.id },
      data: {
        attempts: { increment: 1 },
        lastError: message,
        status: "failed",
        nextAttemptAt: null,
        linkTokenSealed: null,
      },
    });
    logger("email.sender").error(
      { emailId: email.id },
      "email's one-time link could not be opened; marked failed",
    );
    return "failed";
  }
  let messageId: string;
  const mail: OutgoingMail = {
    from: props.from,
    ...(props.replyTo ? { replyTo: props.replyTo } : {}),
    to: email.toAddress,
    subject: token === undefined ? email.subject : withToken(email.subject, token),
    html: token === undefined ? email.html : withToken(email.html, token),
    text: token === undefined ? email.text : withToken(email.text, token),
    attachments: parseAttachments(email.attachments),
    messageId: queuedMessageId(email.id, props.from),
  };
  try {
    ({ messageId } = await (tracingEnabled()
      ? sendTraced(props.transport, mail, email)
      : props.transport.send(mail)));
  } catch (err) {
    const attempts = email.attempts + 1;
    const code = smtpResponseCode(err);
    const permanent = code !== undefined && code >= 500;
    const final = permanent || attempts >= retry.maxAttempts;
    const message = (err instanceof Error ? err.message : String(err)).slice(0, 1000);
    await db.prisma.emailMessage.update({
      where: { id: email.id },
      data: {
        attempts,
        lastError: message,
        status: final ? "failed" : "queued",
        nextAttemptAt: final ? null : new Date(Date.now() + retryDelayMs(retry, attempts)),
        // a failed message keeps no usable link (it cannot be resent with it: deliveryLog.ts)
        ...(final ? { linkTokenSealed: null } : {}),
      },
    });
    logger("email.sender")[final ? "error" : "warn"](
      { emailId: email.id, attempts, smtpCode: code, err: message },
      final ? "email could not be sent; marked failed" : "email not sent; will retry",
    );
    return final ? "failed" : "retry";
  }
  await db.prisma.emailMessage.update({
    where: { id: email.id },
    data: {
      status: "sent",
      // The log keeps what was sent, but not the live one-time links it carried.
      html: redactTokens(email.html),
      text: redactTokens(email.text),
      linkTokenSealed: null,
      messageId,
      sentAt: new Date(),
      attempts: { increment: 1 },
      lastError: null,
      nextAttemptAt: null,
    },
  });
  return "sent";
}
