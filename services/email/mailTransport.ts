import nodemailer, { type SendMailOptions } from "nodemailer";

/** One message as the sender hands it to a transport. */
export interface OutgoingMail {
  from: string | { name: string; address: string };
  to: string;
  subject: string;
  html: string;
  text: string;
  /** an iCalendar invitation: sent as the text/calendar alternative and as invite.ics */
  calendar?: string | null;
}

/** The nodemailer message of an outgoing mail, its invitation (if any) both inline and attached. */
export function nodemailerMessage(mail: OutgoingMail): SendMailOptions {
  const { calendar, ...message } = mail;
  if (!calendar) return message;
  const method = /^METHOD:(\w+)/m.exec(calendar)?.[1]?.toUpperCase() ?? "REQUEST";
  return {
    ...message,
    icalEvent: { method, content: calendar },
    attachments: [
      {
        filename: method === "CANCEL" ? "cancel.ics" : "invite.ics",
        content: calendar,
        contentType: `application/ics; method=${method}`,
      },
    ],
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

export interface SmtpTransportOptions {
  /** smtp:// or smtps:// URL, with credentials and nodemailer's query options if any */
  url: string;
  /** longest wait for a connection, the greeting and each reply (default 15 s) */
  timeoutMs?: number;
}

/**
 * A nodemailer SMTP transport for an `smtp://` or `smtps://` URL, one connection per message, with
 * timeouts so that a server that stops answering fails the attempt instead of hanging the sender.
 */
export function smtpTransport(options: SmtpTransportOptions): MailTransport {
  const timeout = options.timeoutMs ?? 15_000;
  const transporter = nodemailer.createTransport({
    url: options.url,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  });
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
