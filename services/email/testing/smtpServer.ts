import { freePort } from "@services/shared/net";
import PostalMime from "postal-mime";
import { SMTPServer } from "smtp-server";

/** A message the test server received, parsed. */
export interface ReceivedMail {
  /** the RCPT TO addresses of the SMTP envelope */
  to: string[];
  from: string;
  /** the Reply-To address, if the message has one */
  replyTo: string | null;
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
  /** connections accepted since the server was created */
  readonly connections: number;
  /** every AUTH attempt received (user name and password as sent), accepted or not */
  readonly auths: readonly { username: string; password: string }[];
  /** connections open now */
  readonly openConnections: number;
  /** messages the server is receiving now (DATA begun, not yet accepted) */
  readonly messagesInProgress: number;
  /** the most messages the server was receiving at one time */
  readonly peakConcurrentMessages: number;
  start(): Promise<void>;
  /** stops listening and cuts every open connection (as a server that goes down) */
  stop(): Promise<void>;
}

export interface TestSmtpOptions {
  /** RCPT TO addresses the server refuses with 550 (a permanent failure) */
  refuse?: string[];
  /** a wait before the greeting, on top of the 100 ms smtp-server always waits (default 0) */
  greetingDelayMs?: number;
  /** how long the server takes to accept each message once it has it all (default 0) */
  dataDelayMs?: number;
  /**
   * RCPT TO addresses whose first message the server never accepts: the connection is cut while
   * the message is being transferred (a connection that dies mid-send)
   */
  cutFirstDataTo?: string[];
  /**
   * offers AUTH (PLAIN, LOGIN) over the plain connection and requires it: other credentials are
   * refused with 535, as a real server answers a wrong password
   */
  auth?: { user: string; pass: string };
  /** offers AUTH (PLAIN, LOGIN) over the plain connection and refuses whatever it receives (535) */
  recordAuth?: boolean;
}

/**
 * Starts an SMTP server (the smtp-server package, plain text, no authentication unless `auth`, no reverse lookup
 * of the client, so it greets after smtp-server's 100 ms plus `greetingDelayMs`) that parses every
 * message it accepts with postal-mime and counts its connections.
 * @throws when the port cannot be bound.
 */
export async function startTestSmtp(options: TestSmtpOptions = {}): Promise<TestSmtp> {
  const port = await freePort();
  const received: ReceivedMail[] = [];
  const refuse = new Set((options.refuse ?? []).map((a) => a.toLowerCase()));
  const cut = new Set((options.cutFirstDataTo ?? []).map((a) => a.toLowerCase()));
  const open = new Set<string>();
  let connections = 0;
  const auths: { username: string; password: string }[] = [];
  const offersAuth = options.auth !== undefined || options.recordAuth === true;
  let receiving = 0;
  let peakReceiving = 0;
  let server: SMTPServer | undefined;
  const later = (ms: number | undefined, work: () => void) => {
    if (ms) setTimeout(work, ms);
    else work();
  };

  const create = () => {
    const next: SMTPServer = new SMTPServer({
      authOptional: !offersAuth,
      disabledCommands: offersAuth ? ["STARTTLS"] : ["STARTTLS", "AUTH"],
      allowInsecureAuth: true,
      authMethods: ["PLAIN", "LOGIN"],
      onAuth(auth, _session, callback) {
        auths.push({ username: auth.username ?? "", password: auth.password ?? "" });
        if (options.auth && auth.username === options.auth.user && auth.password === options.auth.pass) {
          callback(null, { user: auth.username });
          return;
        }
        callback(Object.assign(new Error("Authentication credentials invalid"), { responseCode: 535 }));
      },
      disableReverseLookup: true,
      // a stop() cuts the connections still open after a moment instead of waiting 30 s for them
      closeTimeout: 10,
      logger: false,
      onConnect(session, callback) {
        connections++;
        open.add(session.id);
        later(options.greetingDelayMs, () => callback());
      },
      onClose(session) {
        open.delete(session.id);
      },
      onRcptTo(address, _session, callback) {
        if (refuse.has(address.address.toLowerCase())) {
          callback(Object.assign(new Error("Mailbox unavailable"), { responseCode: 550 }));
          return;
        }
        callback();
      },
      onData(stream, session, callback) {
        const recipients = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
        const doomed = recipients.find((r) => cut.has(r));
        if (doomed !== undefined) {
          cut.delete(doomed);
          stream.once("data", () => {
            for (const connection of next.connections) {
              if (connection.id === session.id) connection._socket.destroy();
            }
          });
          stream.on("error", () => undefined);
          stream.resume();
          return;
        }
        receiving++;
        peakReceiving = Math.max(peakReceiving, receiving);
        const done = (err?: Error) => {
          receiving--;
          callback(err);
        };
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("error", (err: Error) => done(err));
        stream.on("end", () => {
          PostalMime.parse(Buffer.concat(chunks)).then(
            (mail) =>
              later(options.dataDelayMs, () => {
                received.push({
                  to: session.envelope.rcptTo.map((r) => r.address),
                  from: mail.from?.address ?? "",
                  replyTo: mail.replyTo?.[0]?.address ?? null,
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
                done();
              }),
            (err: unknown) => done(err instanceof Error ? err : new Error(String(err))),
          );
        });
      },
    });
    return next;
  };

  const smtp: TestSmtp = {
    url: `smtp://127.0.0.1:${port}`,
    received,
    to: (address) => received.filter((m) => m.to.includes(address)),
    get connections() {
      return connections;
    },
    auths,
    get openConnections() {
      return open.size;
    },
    get messagesInProgress() {
      return receiving;
    },
    get peakConcurrentMessages() {
      return peakReceiving;
    },
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
