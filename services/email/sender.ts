import { config } from "../shared/config";
import type { Db } from "../shared/db";
import { logger } from "../shared/logger";
import { type MailTransport, type OutgoingMail, smtpTransport } from "./mailTransport";
import {
  type ClaimedEmail,
  captureDueEmails,
  claimDueEmails,
  deliverClaimedEmail,
  type RetryPolicy,
} from "./sendDueEmails";

export interface EmailSenderOptions {
  db: Db;
  /**
   * Where messages go; the sender owns it and closes it on stop. Default: SMTP at
   * config().SMTP_URL, pooled as SMTP_POOL, SMTP_MAX_CONNECTIONS and SMTP_MAX_MESSAGES say, or, with
   * no SMTP_URL (the embedded default), nowhere: messages are kept and marked captured. null forces
   * capturing.
   */
  transport?: MailTransport | null;
  /** sender address; default config().MAIL_FROM, else `"{fromName}" <{fromAddress}>` of email_settings */
  from?: string;
  /** fallback wake-up when no NOTIFY arrives; also when retries fall due (default 5 s) */
  pollMs?: number;
  retry?: RetryPolicy;
  /** messages this sender hands the transport at once (default config().EMAIL_SEND_CONCURRENCY) */
  concurrency?: number;
  /** most messages one claim takes (default 20) */
  batchSize?: number;
  /** how long a claimed message is reserved for this sender before another may try (default 2 min) */
  leaseMs?: number;
}

/** A running sender. */
export interface EmailSender {
  /**
   * Stops claiming, waits for the messages in flight to be sent and recorded, then closes the
   * transport (an SMTP pool closes its connections).
   */
  stop(): Promise<void>;
}

/**
 * Starts the sender of the queued messages of email_messages. It wakes at once on the NOTIFY that
 * queueEmail sends when its transaction commits (and on a timer, for retries falling due), and
 * keeps at most `concurrency` messages in flight: it claims as many due messages as it has free
 * places, hands each to the transport on its own, and claims again as each one is recorded, so a
 * slow message never holds up the others. Several senders (one per worker process) may run at
 * once; the claim (FOR UPDATE SKIP LOCKED, with a lease) gives each message to one of them.
 * @throws RangeError when `concurrency` or `batchSize` is not a positive integer; the database's
 * error when it refuses the LISTEN.
 */
export async function startEmailSender(options: EmailSenderOptions): Promise<EmailSender> {
  const { db } = options;
  const cfg = config();
  const concurrency = options.concurrency ?? cfg.EMAIL_SEND_CONCURRENCY;
  const batchSize = options.batchSize ?? 20;
  const leaseMs = options.leaseMs ?? 120_000;
  for (const [name, value] of [
    ["concurrency", concurrency],
    ["batchSize", batchSize],
  ] as const) {
    if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`);
  }
  const transport =
    options.transport === undefined
      ? cfg.SMTP_URL
        ? smtpTransport({ url: cfg.SMTP_URL })
        : null
      : options.transport;
  const from = options.from ?? cfg.MAIL_FROM;
  const log = logger("email.sender");
  if (transport) log.info({ concurrency }, "sending email over SMTP");
  else log.info("no SMTP_URL: emails are kept in the database, marked captured");

  let stopped = false;
  let stopping: Promise<void> | undefined;
  /** the queue may hold due messages this sender has not claimed yet */
  let wanted = false;
  let claiming: Promise<void> | undefined;
  const inFlight = new Set<Promise<void>>();

  function deliver(to: MailTransport, email: ClaimedEmail, sender: OutgoingMail["from"]): void {
    const delivery: Promise<void> = deliverClaimedEmail({
      db,
      transport: to,
      email,
      from: sender,
      retry: options.retry,
    })
      .then(
        () => undefined,
        (err: unknown) =>
          log.warn(
            { err, emailId: email.id },
            "could not record an email's delivery; due again when its lease ends",
          ),
      )
      .finally(() => {
        inFlight.delete(delivery);
        claim();
      });
    inFlight.add(delivery);
  }

  async function claimWhileRoom(): Promise<void> {
    while (wanted && !stopped && inFlight.size < concurrency) {
      wanted = false;
      try {
        if (transport !== null) {
          const limit = Math.min(batchSize, concurrency - inFlight.size);
          const taken = await claimDueEmails({ db, limit, leaseMs });
          for (const email of taken.emails) deliver(transport, email, from ?? taken.from);
          if (taken.emails.length >= limit) wanted = true;
          if (taken.enabled) continue;
        }
        // no SMTP, or email switched off in the settings: keep the messages, marked captured
        const captured = await captureDueEmails({ db, limit: batchSize });
        if (captured >= batchSize) wanted = true;
      } catch (err) {
        log.warn({ err }, "email sender could not claim messages; will try again");
        return;
      }
    }
  }

  /** Claims due messages while some may be waiting and there is room; one claim at a time. */
  function claim(): void {
    if (stopped || claiming || !wanted || inFlight.size >= concurrency) return;
    claiming = claimWhileRoom().finally(() => {
      claiming = undefined;
      claim();
    });
  }

  function wake(): void {
    wanted = true;
    claim();
  }

  const unlisten = await db.listen("email_messages", wake);
  const timer = setInterval(wake, options.pollMs ?? 5000);
  timer.unref();
  wake();

  return {
    stop() {
      stopping ??= (async () => {
        stopped = true;
        clearInterval(timer);
        await unlisten().catch(() => undefined);
        await claiming;
        while (inFlight.size > 0) await Promise.all(inFlight);
        transport?.close();
      })();
      return stopping;
    },
  };
}
