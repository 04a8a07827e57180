import nodemailer, { type SendMailOptions } from "nodemailer";
import { config } from "../shared/config";
import { calendarMethodOf, type EmailAttachment } from "./attachments";

/** One message as the sender hands it to a transport. */
export interface OutgoingMail {
  from: string | { name: string; address: string };
  to: string;
  subject: string;
  html: string;
  text: string;
  /** files sent with the message (services/email/attachments.ts) */
  attachments?: EmailAttachment[];
}

/**
 * The nodemailer message of an outgoing mail. The first text/calendar attachment (an appointment's
 * invitation) goes as nodemailer's `icalEvent`: the `text/calendar; method=...` alternative that
 * mail clients show with accept and decline, plus the downloadable .ics nodemailer attaches itself
 * (so it is not attached a second time). Every other attachment is attached as stored.
 */
export function nodemailerMessage(mail: OutgoingMail): SendMailOptions {
  const { attachments = [], ...message } = mail;
  if (attachments.length === 0) return message;
  const invitation = attachments.find((a) => calendarMethodOf(a) !== null);
  const others = attachments.filter((a) => a !== invitation);
  return {
    ...message,
    ...(invitation
      ? {
          icalEvent: {
            method: calendarMethodOf(invitation) ?? "REQUEST",
            filename: invitation.filename,
            content: invitation.encoding ? Buffer.from(invitation.content, "base64") : invitation.content,
          },
        }
      : {}),
    ...(others.length > 0
      ? {
          attachments: others.map((a) => ({
            filename: a.filename,
            content: a.content,
            contentType: a.contentType,
            ...(a.encoding ? { encoding: a.encoding } : {}),
          })),
        }
      : {}),
  };
}

/** Where messages go: SMTP in the portal, anything with the same shape in a test. */
export interface MailTransport {
  /**
   * Sends one message and answers the id the server accepted it under.
   * @throws the transport's error; an SMTP reply carries `responseCode`.
   */
  send(mail: OutgoingMail): Promise<{ messageId: string }>;
  close(): void;
}

/** How an SMTP transport reuses connections. */
export interface SmtpPoolOptions {
  /** connections open at once (nodemailer's maxConnections) */
  maxConnections: number;
  /** messages sent over one connection before it is replaced (nodemailer's maxMessages) */
  maxMessages: number;
}

export interface SmtpTransportOptions {
  /** smtp:// or smtps:// URL, with credentials and nodemailer's query options if any */
  url: string;
  /** longest wait for a connection, the greeting and each reply (default 15 s) */
  timeoutMs?: number;
  /**
   * Pooled connections, each kept open between messages (closed after it idles for two thirds of
   * `timeoutMs`), or false for a new connection per message. Default: SMTP_POOL,
   * SMTP_MAX_CONNECTIONS and SMTP_MAX_MESSAGES of the configuration.
   */
  pool?: SmtpPoolOptions | false;
}

/** The pool settings of the configuration (SMTP_POOL, SMTP_MAX_CONNECTIONS, SMTP_MAX_MESSAGES). */
export function configuredSmtpPool(): SmtpPoolOptions | false {
  const cfg = config();
  return cfg.SMTP_POOL
    ? { maxConnections: cfg.SMTP_MAX_CONNECTIONS, maxMessages: cfg.SMTP_MAX_MESSAGES }
    : false;
}

/**
 * A nodemailer SMTP transport for an `smtp://` or `smtps://` URL, with timeouts so that a server
 * that stops answering fails the attempt instead of hanging the sender. Pooled (the default), it
 * sends over at most `maxConnections` connections that stay open between messages, queueing the
 * messages beyond them; a message whose reused connection was dropped before a byte of it was sent
 * goes out over another one. close() closes idle connections at once and busy ones after their
 * message, and fails the messages still queued.
 */
export function smtpTransport(options: SmtpTransportOptions): MailTransport {
  const timeout = options.timeoutMs ?? 15_000;
  const pool = options.pool ?? configuredSmtpPool();
  const timeouts = { connectionTimeout: timeout, greetingTimeout: timeout, socketTimeout: timeout };
  const transporter = pool
    ? nodemailer.createTransport({
        url: options.url,
        ...timeouts,
        pool: true,
        maxConnections: pool.maxConnections,
        maxMessages: pool.maxMessages,
        // an idle connection says goodbye before its socket timeout would cut it
        idleTimeout: Math.max(1, Math.floor((timeout * 2) / 3)),
      })
    : nodemailer.createTransport({ url: options.url, ...timeouts });
  return {
    async send(mail) {
      const info = await transporter.sendMail(nodemailerMessage(mail));
      return { messageId: info.messageId };
    },
    close() {
      transporter.close();
    },
  };
}

/** The SMTP reply code of a transport error, when the server gave one. */
export function smtpResponseCode(err: unknown): number | undefined {
  if (typeof err === "object" && err !== null && "responseCode" in err) {
    const code = err.responseCode;
    if (typeof code === "number") return code;
  }
  return undefined;
}
