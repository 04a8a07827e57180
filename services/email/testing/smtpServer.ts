import net from "node:net";
import PostalMime from "postal-mime";
import { SMTPServer } from "smtp-server";

/** A message the test server received, parsed. */
export interface ReceivedMail {
  /** the RCPT TO addresses of the SMTP envelope */
  to: string[];
  from: string;
  subject: string;
  html: string;
  text: string;
  messageId: string;
  /** attachments and non-text alternatives (a text/calendar invitation), their content as text */
  attachments: { filename: string | null; mimeType: string; method: string | null; content: string }[];
}

/** A real SMTP server of the test's own on a free port, to stop and start again. */
export interface TestSmtp {
  /** the SMTP_URL a transport uses to reach it */
  url: string;
  received: ReceivedMail[];
  /** received messages addressed to `address` */
  to(address: string): ReceivedMail[];
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface TestSmtpOptions {
  /** RCPT TO addresses the server refuses with 550 (a permanent failure) */
  refuse?: string[];
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts an SMTP server (the smtp-server package, plain text, no authentication) that parses every
 * message it accepts with postal-mime.
 * @throws when the port cannot be bound.
 */
export async function startTestSmtp(options: TestSmtpOptions = {}): Promise<TestSmtp> {
  const port = await freePort();
  const received: ReceivedMail[] = [];
  const refuse = new Set((options.refuse ?? []).map((a) => a.toLowerCase()));
  let server: SMTPServer | undefined;

  const create = () =>
    new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS", "AUTH"],
      logger: false,
      onRcptTo(address, _session, callback) {
        if (refuse.has(address.address.toLowerCase())) {
          callback(Object.assign(new Error("Mailbox unavailable"), { responseCode: 550 }));
          return;
        }
        callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          PostalMime.parse(Buffer.concat(chunks)).then(
            (mail) => {
              received.push({
                to: session.envelope.rcptTo.map((r) => r.address),
                from: mail.from?.address ?? "",
                subject: mail.subject ?? "",
                html: mail.html ?? "",
                text: mail.text ?? "",
                messageId: mail.messageId ?? "",
                attachments: mail.attachments.map((a) => ({
                  filename: a.filename,
                  mimeType: a.mimeType,
                  method: a.method ?? null,
                  content: typeof a.content === "string" ? a.content : new TextDecoder().decode(a.content),
                })),
              });
              callback();
            },
            (err: unknown) => callback(err instanceof Error ? err : new Error(String(err))),
          );
        });
      },
    });

  const smtp: TestSmtp = {
    url: `smtp://127.0.0.1:${port}`,
    received,
    to: (address) => received.filter((m) => m.to.includes(address)),
    async start() {
      const next = create();
      await new Promise<void>((resolve, reject) => {
        next.once("error", reject);
        next.listen(port, "127.0.0.1", () => resolve());
      });
      server = next;
    },
    async stop() {
      const running = server;
      server = undefined;
      if (running) await new Promise<void>((resolve) => running.close(() => resolve()));
    },
  };
  await smtp.start();
  return smtp;
}
