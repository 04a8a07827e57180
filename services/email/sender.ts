import { config } from "../shared/config";
import type { Db } from "../shared/db";
import { logger } from "../shared/logger";
import { type MailTransport, smtpTransport } from "./mailTransport";
import { type RetryPolicy, type SendDueEmailsResult, sendDueEmails } from "./sendDueEmails";

export interface EmailSenderOptions {
  db: Db;
  /**
   * Where messages go. Default: SMTP at config().SMTP_URL, or, with no SMTP_URL (the embedded
   * default), nowhere: messages are kept and marked captured. null forces capturing.
   */
  transport?: MailTransport | null;
  /** sender address; default config().MAIL_FROM, else `"{fromName}" <{fromAddress}>` of email_settings */
  from?: string;
  /** fallback wake-up when no NOTIFY arrives; also when retries fall due (default 5 s) */
  pollMs?: number;
  retry?: RetryPolicy;
  batchSize?: number;
  leaseMs?: number;
}

/** A running sender. */
export interface EmailSender {
  /** stops waking up and waits for the batch in progress */
  stop(): Promise<void>;
  /** processes every message due now (one batch after another) */
  drain(): Promise<void>;
}

/**
 * Starts the loop that sends the queued messages of email_messages: woken by the NOTIFY that
 * queueEmail sends when its transaction commits, and by a timer for retries. Several senders (one
 * per worker process) may run at once; each message is sent by one of them.
 * @throws when the database refuses the LISTEN.
 */
export async function startEmailSender(options: EmailSenderOptions): Promise<EmailSender> {
  const { db } = options;
  const cfg = config();
  const ownsTransport = options.transport === undefined;
  const transport =
    options.transport === undefined
      ? cfg.SMTP_URL
        ? smtpTransport({ url: cfg.SMTP_URL })
        : null
      : options.transport;
  const log = logger("email.sender");
  log.info(
    transport ? "sending email over SMTP" : "no SMTP_URL: emails are kept in the database, marked captured",
  );

  let stopped = false;
  let wanted = false;
  let loop: Promise<void> | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work, work);
    queue = run.catch(() => undefined);
    return run;
  };
  const batchSize = options.batchSize ?? 20;
  const batch = (): Promise<SendDueEmailsResult> =>
    exclusive(() =>
      sendDueEmails({
        db,
        transport,
        from: options.from ?? cfg.MAIL_FROM,
        retry: options.retry,
        batchSize,
        leaseMs: options.leaseMs,
      }),
    );

  async function run(): Promise<void> {
    while (wanted && !stopped) {
      wanted = false;
      try {
        for (;;) {
          const result = await batch();
          if (result.claimed < batchSize || stopped) break;
        }
      } catch (err) {
        log.warn({ err }, "email sender could not process the queue; will try again");
      }
    }
  }

  function wake(): void {
    wanted = true;
    if (stopped || loop) return;
    loop = run().finally(() => {
      loop = undefined;
      if (wanted && !stopped) wake();
    });
  }

  const unlisten = await db.listen("email_messages", wake);
  const timer = setInterval(wake, options.pollMs ?? 5000);
  timer.unref();
  wake();

  return {
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      await unlisten().catch(() => undefined);
      await loop;
      await queue;
      if (ownsTransport) transport?.close();
    },
    async drain() {
      for (;;) {
        const result = await batch();
        if (result.claimed < batchSize) return;
      }
    },
  };
}
