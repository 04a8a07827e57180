import { config } from "@services/shared/config";
import type { Db } from "@services/shared/db";
import { startLeaseRunner } from "@services/shared/jobs/leaseRunner";
import { logger } from "@services/shared/logger";
import { settingsSmtpServer } from "./emailSettings";
import { type MailTransport, type OutgoingMail, smtpTransport } from "./mailTransport";
import {
  type ClaimedEmail,
  captureDueEmails,
  claimDueEmails,
  deliverClaimedEmail,
  type RetryPolicy,
  type StoredSmtpServer,
} from "./sendDueEmails";

export interface EmailSenderOptions {
  db: Db;
  /**
   * Where messages go; the sender owns it and closes it on stop. Default: SMTP at
   * config().SMTP_URL, pooled as SMTP_POOL, SMTP_MAX_CONNECTIONS and SMTP_MAX_MESSAGES say, or, with
   * no SMTP_URL, the SMTP server of email_settings as it is at each claim (a changed server gets a
   * new pool for the next message; the old pool closes once its messages are done), or, with no
   * host there either, nowhere: messages are kept and marked captured. null forces capturing.
   */
  transport?: MailTransport | null;
  /** the timeout of each step of an SMTP conversation with the settings' server (default 15 s) */
  smtpTimeoutMs?: number;
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
  const leaseMs = options.leaseMs ?? cfg.EMAIL_LEASE_MS;
  for (const [name, value] of [
    ["concurrency", concurrency],
    ["batchSize", batchSize],
  ] as const) {
    if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`);
  }
  // a transport given, or SMTP_URL's; undefined: the settings' server, read at each claim
  const fixed: MailTransport | null | undefined =
    options.transport === undefined
      ? cfg.SMTP_URL
        ? smtpTransport({ url: cfg.SMTP_URL })
        : undefined
      : options.transport;
  const from = options.from ?? cfg.MAIL_FROM;
  const log = logger("email.sender");
  if (fixed) log.info({ concurrency }, "sending email over SMTP");
  else if (fixed === null) log.info("emails are kept in the database, marked captured");
  else log.info({ concurrency }, "no SMTP_URL: sending over the SMTP server of the email settings, if any");

  /** A transport and the messages handed to it that are not recorded yet. */
  interface Live {
    key: string;
    transport: MailTransport;
    busy: number;
    retired: boolean;
  }
  const fixedLive: Live | undefined = fixed
    ? { key: "fixed", transport: fixed, busy: 0, retired: false }
    : undefined;
  let current: Live | undefined = fixedLive;
  const retiring = new Set<Live>();

  function retire(live: Live): void {
    live.retired = true;
    if (live.busy === 0) live.transport.close();
    else retiring.add(live);
  }

  /**
   * The pool for the settings' server of this claim: the current one while the server, port,
   * security, user and (sealed) password are unchanged; otherwise a new one, and the old one closes
   * once the messages handed to it are recorded.
   */
  function transportFor(smtp: StoredSmtpServer): Live {
    const key = JSON.stringify(smtp);
    if (current?.key === key) return current;
    if (current) retire(current);
    const server = settingsSmtpServer(smtp);
    const transport: MailTransport =
      server instanceof Error
        ? {
            send: () => Promise.reject(server),
            close: () => undefined,
          }
        : smtpTransport({ server, timeoutMs: options.smtpTimeoutMs });
    if (server instanceof Error) log.error({ err: server.message }, "the SMTP settings cannot be used");
    else
      log.info(
        { host: server.host, port: server.port },
        "sending over the SMTP server of the email settings",
      );
    current = { key, transport, busy: 0, retired: false };
    return current;
  }

  /** Hands a claimed message to its transport; the runner counts it in flight until it is recorded. */
  async function deliver(item: {
    to: Live;
    email: ClaimedEmail;
    sender: OutgoingMail["from"];
    replyTo: string | null;
  }): Promise<void> {
    const { to, email } = item;
    to.busy++;
    try {
      await deliverClaimedEmail({
        db,
        transport: to.transport,
        email,
        from: item.sender,
        replyTo: item.replyTo,
        retry: options.retry,
      });
    } catch (err) {
      log.warn(
        { err, emailId: email.id },
        "could not record an email's delivery; due again when its lease ends",
      );
    } finally {
      to.busy--;
      if (to.retired && to.busy === 0 && retiring.delete(to)) to.transport.close();
    }
  }

  /** Claims up to `room` due messages (or captures them when there is nowhere to send them). */
  async function claim(room: number) {
    const items: Parameters<typeof deliver>[0][] = [];
    if (fixed !== null) {
      const limit = Math.min(batchSize, room);
      const taken = await claimDueEmails({ db, limit, leaseMs, needsSmtpSettings: fixed === undefined });
      if (taken.emails.length > 0) {
        const live = fixedLive ?? (taken.smtp ? transportFor(taken.smtp) : undefined);
        if (!live) throw new Error("messages were claimed without an SMTP server");
        for (const email of taken.emails) {
          items.push({ to: live, email, sender: from ?? taken.from, replyTo: taken.replyTo });
        }
      }
      if (fixed === undefined && !taken.smtp && current) {
        // the host was removed from the settings: the pool goes once its messages are done
        retire(current);
        current = undefined;
      }
      if (taken.enabled) return { items, more: taken.emails.length >= limit };
    }
    // no SMTP, or email switched off in the settings: keep the messages, marked captured
    const captured = await captureDueEmails({ db, limit: batchSize });
    return { items, more: captured >= batchSize };
  }

  const runner = await startLeaseRunner({
    db,
    channel: "email_messages",
    pollMs: options.pollMs ?? 5000,
    concurrency,
    claim,
    run: deliver,
    onClaimError: (err) => log.warn({ err }, "email sender could not claim messages; will try again"),
    // a recorded message frees a place: claim again only while due messages may be waiting
    wakeAfterEach: false,
  });

  let stopping: Promise<void> | undefined;
  return {
    stop() {
      stopping ??= (async () => {
        await runner.stop();
        for (const live of retiring) live.transport.close();
        retiring.clear();
        current?.transport.close();
      })();
      return stopping;
    },
  };
}
