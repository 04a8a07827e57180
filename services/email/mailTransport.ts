import { isIP } from "node:net";
import { config } from "@services/shared/config";
import { withTimeout } from "@services/shared/timeout";
import nodemailer, { type SendMailOptions } from "nodemailer";
import { calendarMethodOf, type EmailAttachment } from "./attachments";

/** One message as the sender hands it to a transport. */
export interface OutgoingMail {
  from: string | { name: string; address: string };
  to: string;
  subject: string;
  html: string;
  text: string;
  /** where replies go (email_settings.replyTo); unset: to `from` */
  replyTo?: string;
  /** files sent with the message (services/email/attachments.ts) */
  attachments?: EmailAttachment[];
  /** the Message-ID header (angle brackets included); unset: nodemailer makes a random one */
  messageId?: string;
}

/**
 * The Message-ID of queued message `emailId`, the same at every attempt: a message sent again (its
 * sender killed after the server took it and before it was recorded, say) is recognisably the same
 * message, which mail servers and clients may drop as a duplicate. Its domain is the sender's.
 */
export function queuedMessageId(emailId: number, from: OutgoingMail["from"]): string {
  const address = typeof from === "string" ? (/<([^>]+)>/.exec(from)?.[1] ?? from) : from.address;
  const domain = address.includes("@") ? address.slice(address.lastIndexOf("@") + 1).trim() : "";
  return `<email-${emailId}@${/^[A-Za-z0-9.-]+$/.test(domain) ? domain : "portal.invalid"}>`;
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
  /** the SMTP server it sends to (a trace's server.address and server.port), when it has one */
  readonly server?: { address: string; port: number };
}

/** How an SMTP transport reuses connections. */
export interface SmtpPoolOptions {
  /** connections open at once (nodemailer's maxConnections) */
  maxConnections: number;
  /** messages sent over one connection before it is replaced (nodemailer's maxMessages) */
  maxMessages: number;
}

/** An SMTP server as the email settings describe it (issue 12). */
export interface SmtpServer {
  host: string;
  port: number;
  /** none: plain text, never upgraded; starttls: upgraded, and refused when the server cannot; tls: TLS from the start */
  security: "none" | "starttls" | "tls";
  /** signs in when set */
  user?: string;
  password?: string;
  /**
   * the address to connect to, already judged by the address rules ("Test connection"); `host`
   * is then the name TLS verifies the certificate for and messages show
   */
  address?: string;
}

/** Where an SMTP transport connects: an `smtp://` or `smtps://` URL (SMTP_URL), or a server of the settings. */
export type SmtpTarget = { url: string } | { server: SmtpServer };

/** nodemailer's connection options of a target. */
function connectionOptions(target: SmtpTarget) {
  if ("url" in target) return { url: target.url };
  const { host, port, security, user, password, address } = target.server;
  return {
    host: address ?? host,
    ...(address && !isIP(host) ? { servername: host } : {}),
    port,
    secure: security === "tls",
    requireTLS: security === "starttls",
    ignoreTLS: security === "none",
    ...(user ? { auth: { user, pass: password ?? "" } } : {}),
  };
}

/** The host and port of a target (never its credentials); undefined for a URL that does not parse. */
function serverOf(target: SmtpTarget): { address: string; port: number } | undefined {
  if ("server" in target) return { address: target.server.host, port: target.server.port };
  try {
    const url = new URL(target.url);
    return { address: url.hostname, port: Number(url.port || (url.protocol === "smtps:" ? 465 : 587)) };
  } catch {
    return undefined;
  }
}

/** host:port of a target, for messages (never its credentials). */
export function targetLabel(target: SmtpTarget): string {
  if ("server" in target) return `${target.server.host}:${target.server.port}`;
  try {
    const url = new URL(target.url);
    return `${url.hostname}:${url.port || (url.protocol === "smtps:" ? "465" : "587")}`;
  } catch {
    return "the SMTP server";
  }
}

export type SmtpTransportOptions = SmtpTarget & {
  /** longest wait for a connection, the greeting and each reply (default 15 s) */
  timeoutMs?: number;
  /**
   * Pooled connections, each kept open between messages (closed after it idles for two thirds of
   * `timeoutMs`), or false for a new connection per message. Default: SMTP_POOL,
   * SMTP_MAX_CONNECTIONS and SMTP_MAX_MESSAGES of the configuration.
   */
  pool?: SmtpPoolOptions | false;
};

/** The pool settings of the configuration (SMTP_POOL, SMTP_MAX_CONNECTIONS, SMTP_MAX_MESSAGES). */
export function configuredSmtpPool(): SmtpPoolOptions | false {
  const cfg = config();
  return cfg.SMTP_POOL
    ? { maxConnections: cfg.SMTP_MAX_CONNECTIONS, maxMessages: cfg.SMTP_MAX_MESSAGES }
    : false;
}

/**
 * A nodemailer SMTP transport for an `smtp://` or `smtps://` URL or a server of the settings, with timeouts so that a server
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
  const connection = connectionOptions(options);
  const transporter = pool
    ? nodemailer.createTransport({
        ...connection,
        ...timeouts,
        pool: true,
        maxConnections: pool.maxConnections,
        maxMessages: pool.maxMessages,
        // an idle connection says goodbye before its socket timeout would cut it
        idleTimeout: Math.max(1, Math.floor((timeout * 2) / 3)),
      })
    : nodemailer.createTransport({ ...connection, ...timeouts });
  const server = serverOf(options);
  return {
    async send(mail) {
      const info = await transporter.sendMail(nodemailerMessage(mail));
      return { messageId: info.messageId };
    },
    close() {
      transporter.close();
    },
    ...(server ? { server } : {}),
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

/** What "Test connection" found, in words of the portal's own (never the server's text). */
export interface SmtpVerification {
  ok: boolean;
  /** one sentence: what happened, from a fixed set (the server's reply code, not its text) */
  message: string;
  /** the SMTP reply code of a refusal (535: wrong user name or password), when the server gave one */
  responseCode: number | null;
  latencyMs: number;
}

const NETWORK_WORDS: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "the connection was reset",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host not found",
  EDNS: "host not found",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  CERT_HAS_EXPIRED: "its TLS certificate has expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: "its TLS certificate is self-signed",
  SELF_SIGNED_CERT_IN_CHAIN: "its TLS certificate is self-signed",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "its TLS certificate cannot be verified",
  ERR_TLS_CERT_ALTNAME_INVALID: "its TLS certificate is for another host",
  // nodemailer's own codes
  ETLS: "the connection could not be encrypted",
  EPROTOCOL: "it did not answer as an SMTP server",
  ECONNECTION: "the connection was closed",
  ESOCKET: "the connection failed",
};

function field(err: unknown, name: string): unknown {
  return typeof err === "object" && err !== null ? Reflect.get(err, name) : undefined;
}

/**
 * A refusal by its reply code, in a sentence of the portal's own: what a server says beside its
 * code is never repeated (a "Test connection" pointed at another kind of server would show its
 * banner).
 */
function refusal(code: number, label: string): string {
  if (code === 535 || code === 534)
    return `The server at ${label} refused the user name or password (${code})`;
  if (code === 530) return `The server at ${label} requires signing in first (${code})`;
  if (code >= 400 && code < 500) return `The server at ${label} refused the test for now (${code})`;
  return `The server at ${label} refused the test (${code})`;
}

/**
 * A failed verification in a fixed sentence: the reply code when the server refused, else what
 * the network said. A timeout before the server said anything is "no greeting", whichever of
 * nodemailer's timers (greeting or socket, both `timeoutMs`) fired first.
 */
function verificationFailure(err: unknown, label: string, timeoutMs: number, greeted: boolean): string {
  const code = smtpResponseCode(err);
  if (code !== undefined && code >= 400 && code < 600) return refusal(code, label);
  const errCode = field(err, "code");
  const message = err instanceof Error ? err.message : String(err);
  if (errCode === "ETIMEDOUT" || err instanceof SmtpDeadline) {
    const what = !greeted || /greeting/i.test(message) ? "no greeting" : "no answer";
    return `Could not connect to ${label}: ${what} within ${timeoutMs / 1000} s`;
  }
  // the most precise first: the network's own code, then nodemailer's
  for (const candidate of [field(err, "originalCode"), field(field(err, "cause"), "code"), errCode]) {
    if (typeof candidate === "string" && candidate in NETWORK_WORDS) {
      return `Could not connect to ${label}: ${NETWORK_WORDS[candidate]}`;
    }
  }
  for (const [known, words] of Object.entries(NETWORK_WORDS)) {
    if (message.includes(known)) return `Could not connect to ${label}: ${words}`;
  }
  return `Could not connect to ${label}: the test failed`;
}

class SmtpDeadline extends Error {}

/** A verification that failed before a connection was tried (the host did not resolve). */
export function unreachableSmtp(target: SmtpTarget, err: unknown, timeoutMs = 10_000): SmtpVerification {
  return {
    ok: false,
    message: verificationFailure(err, targetLabel(target), timeoutMs, false),
    responseCode: null,
    latencyMs: 0,
  };
}

/**
 * "Test connection" (issue 12): connects to the SMTP server as the sender would (TLS as set), says
 * EHLO, signs in when a user is set, and says QUIT (nodemailer's verify()). Every step is bounded by
 * `timeoutMs` (default 10 s) and the whole by a little more, so a server that accepts the connection
 * and stays silent fails fast. Answers in fixed sentences (issue 20: the server's text is never
 * repeated, only its reply code); never throws.
 */
export async function verifySmtp(target: SmtpTarget, timeoutMs = 10_000): Promise<SmtpVerification> {
  let greeted = false;
  const ignore = () => undefined;
  // nodemailer logs each reply of the server (tnx "server") when transactionLog is on: only
  // whether one came is kept (a silent server is "no greeting")
  const notice = (entry: { tnx?: string } | undefined) => {
    if (entry?.tnx === "server") greeted = true;
  };
  const transporter = nodemailer.createTransport({
    ...connectionOptions(target),
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    transactionLog: true,
    logger: { trace: ignore, debug: notice, info: ignore, warn: ignore, error: ignore, fatal: ignore },
  });
  const label = targetLabel(target);
  const signsIn = "server" in target ? Boolean(target.server.user) : hasUser(target.url);
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    await withTimeout(transporter.verify(), timeoutMs + 2000, () => new SmtpDeadline("no answer"));
    return {
      ok: true,
      message: `Connected to ${label}${signsIn ? " and signed in" : ""}`,
      responseCode: null,
      latencyMs: elapsed(),
    };
  } catch (err) {
    return {
      ok: false,
      message: verificationFailure(err, label, timeoutMs, greeted),
      responseCode: smtpResponseCode(err) ?? null,
      latencyMs: elapsed(),
    };
  } finally {
    transporter.close();
  }
}

function hasUser(url: string): boolean {
  try {
    return new URL(url).username !== "";
  } catch {
    return false;
  }
}
