import {
  AckPolicy,
  type ConsumerConfig,
  DeliverPolicy,
  DiscardPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  type JetStreamManager,
  type JsMsg,
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
  type StreamConfig,
} from "@nats-io/jetstream";
import { type NatsConnection, nanos } from "@nats-io/transport-node";
import { natsAckSchema, userSyncPayloadSchema } from "@schema/esrt/contract";
import { uniqueIdSchema } from "@schema/validation/user";
import { config } from "@services/shared/config";
import type { Db } from "@services/shared/db";
import { isAppError } from "@services/shared/errors";
import { consumeDurable } from "@services/shared/events/durableConsume";
import { logger } from "@services/shared/logger";
import { acknowledge } from "./state";

// The Pro app's NATS channel (issue 10, docs/asyncapi.yaml): a JetStream stream holding
// `<prefix>.user.<uniqueId>` (the portal publishes each user's latest snapshot) and
// `<prefix>.ack.<uniqueId>` (the Pro app publishes the version it has taken in).
//
// The stream keeps ONE message per subject (max_msgs_per_subject 1, no age limit): it is the latest
// state of every user, so a Pro app that subscribes late (or replays with DeliverLastPerSubject)
// reads each user's newest snapshot and never an older one after a newer one. On the ack subjects
// the same rule is harmless: acknowledgements only ever raise a user's acknowledged version, so a
// newer ack replacing an unread older one loses nothing. `Nats-Msg-Id` = `<uniqueId>:<version>`
// makes a retried publish within the 2-minute duplicate window a no-op.

/** The durable JetStream consumer that applies the Pro app's acknowledgements. */
export const ACK_DURABLE = "portal_esrt_acks";

const DUPLICATE_WINDOW_MS = 120_000;

/**
 * Whether `value` can be one NATS subject token: printable ASCII without space, '.', '*' or '>'
 * (generateUniqueId's "ESRT-" and Crockford base32 always is).
 */
export function isSubjectToken(value: string): boolean {
  return /^[!-~]+$/.test(value) && !/[.*>]/.test(value);
}

/** A uniqueId that is valid (uniqueIdSchema, untrimmed) and one subject token, or null. */
function subjectUniqueId(value: string): string | null {
  const parsed = uniqueIdSchema.safeParse(value);
  return parsed.success && parsed.data === value && isSubjectToken(value) ? value : null;
}

/** The subject a user's snapshot is published on. */
export function userSubject(prefix: string, uniqueId: string): string {
  return `${prefix}.user.${uniqueId}`;
}

/** The subject the Pro app acknowledges a user's version on. */
export function ackSubject(prefix: string, uniqueId: string): string {
  return `${prefix}.ack.${uniqueId}`;
}

/** The stream's settings this channel relies on. */
export function esrtStreamConfig(
  stream: string,
  prefix: string,
): Partial<StreamConfig> & { name: string; subjects: string[] } {
  return {
    name: stream,
    subjects: [`${prefix}.user.>`, `${prefix}.ack.>`],
    storage: StorageType.File,
    retention: RetentionPolicy.Limits,
    discard: DiscardPolicy.Old,
    max_msgs_per_subject: 1,
    max_age: 0,
    duplicate_window: nanos(DUPLICATE_WINDOW_MS),
  };
}

const isApiError = (err: unknown, code: number) => err instanceof JetStreamApiError && err.code === code;

/**
 * Creates the Pro-app stream, or brings an existing one's subjects, per-subject limit and duplicate
 * window to {@link esrtStreamConfig} (idempotent; safe when several processes start at once).
 * @throws JetStream errors (JetStream unavailable, subjects taken by another stream).
 */
export async function ensureEsrtStream(jsm: JetStreamManager, stream: string, prefix: string): Promise<void> {
  const wanted = esrtStreamConfig(stream, prefix);
  let existing: StreamConfig | undefined;
  try {
    existing = (await jsm.streams.info(stream)).config;
  } catch (err) {
    if (!isApiError(err, JetStreamApiCodes.StreamNotFound)) throw err;
  }
  if (!existing) {
    try {
      await jsm.streams.add(wanted);
      logger("esrt-nats").info({ stream, subjects: wanted.subjects }, "created the Pro-app stream");
      return;
    } catch (err) {
      // another process may have created it at the same moment
      existing = await jsm.streams.info(stream).then(
        (info) => info.config,
        () => {
          throw err;
        },
      );
    }
  }
  const same =
    [...existing.subjects].sort().join(" ") === [...wanted.subjects].sort().join(" ") &&
    existing.max_msgs_per_subject === wanted.max_msgs_per_subject &&
    existing.duplicate_window === wanted.duplicate_window;
  if (same) return;
  await jsm.streams.update(stream, {
    subjects: wanted.subjects,
    max_msgs_per_subject: wanted.max_msgs_per_subject,
    duplicate_window: wanted.duplicate_window,
  });
  logger("esrt-nats").info({ stream, subjects: wanted.subjects }, "updated the Pro-app stream");
}

export interface EsrtNatsOptions {
  db: Db;
  /** the connection (connectNats); the channel does not close it */
  nc: NatsConnection;
  /** the stream (default config().ESRT_STREAM) */
  stream?: string;
  /** the subjects' prefix (default config().ESRT_SUBJECT_PREFIX) */
  subjectPrefix?: string;
  /** the ack consumer's durable name (default {@link ACK_DURABLE}) */
  durable?: string;
  /** how long a publish waits for the stream's acknowledgement (default 5 s) */
  publishTimeoutMs?: number;
  /** time an ack may stay unsettled before JetStream delivers it again (default 30 s) */
  ackWaitMs?: number;
  /** the longest delay before an ack that failed on a transient error is tried again (default 30 s) */
  maxRetryDelayMs?: number;
}

/** A user's snapshot to publish: the payload must be the user.sync payload of that uniqueId and version. */
export interface SnapshotMessage {
  uniqueId: string;
  version: number;
  /** a user.sync payload (userSyncPayloadSchema), sent as JSON */
  payload: unknown;
}

/** What the channel has done since it started (for the sync dashboard's NATS health). */
export interface EsrtNatsStats {
  published: number;
  publishFailures: number;
  acksApplied: number;
  /** acks terminated: bad subject, bad JSON, unknown user, version newer than the latest */
  acksRejected: number;
  /** acks put back after a transient failure */
  acksRetried: number;
  lastPublishAt: Date | null;
  lastAckAt: Date | null;
  lastError: string | null;
}

export interface EsrtNatsChannel {
  readonly stream: string;
  readonly subjectPrefix: string;
  /**
   * Publishes a user's snapshot on `<prefix>.user.<uniqueId>` with Nats-Msg-Id `<uniqueId>:<version>`
   * and resolves once the stream has stored it (or found it a duplicate within its window).
   * @throws TypeError when the uniqueId is not a valid subject token or the payload is not that
   * user's user.sync payload at that version (retrying will not help); other errors (timeout, NATS
   * away, stream missing and not re-creatable) when the message may not be stored: retry later.
   */
  publishSnapshot(message: SnapshotMessage): Promise<void>;
  /** Counters since start. */
  stats(): EsrtNatsStats;
  /** Acks waiting for this deployment (pending and unsettled on the durable); null when unknown. */
  pendingAcks(): Promise<number | null>;
  /** Stops the ack consumer after the ack in hand is settled. */
  stop(): Promise<void>;
}

function versionAtLeast(version: string | undefined, wanted: number[]): boolean {
  const parts = (version ?? "0").split(".").map((p) => Number.parseInt(p, 10) || 0);
  for (const [i, w] of wanted.entries()) {
    const v = parts[i] ?? 0;
    if (v !== w) return v > w;
  }
  return true;
}

/**
 * Starts the Pro app's NATS channel: ensures the stream, and runs the durable consumer of
 * `<prefix>.ack.>` that records each acknowledgement (acknowledge, via "nats"). An ack that can never
 * apply (a subject that is not a valid uniqueId, bad JSON or schema, an unknown user, a version
 * newer than the latest) is logged and terminated; a transient failure (the database away) is
 * nak'd with a growing delay. A consumer or stream that vanishes is created again.
 * @throws Error when JetStream is unavailable or the stream cannot be created.
 */
export async function startEsrtNats(options: EsrtNatsOptions): Promise<EsrtNatsChannel> {
  const { db, nc } = options;
  const stream = options.stream ?? config().ESRT_STREAM;
  const prefix = options.subjectPrefix ?? config().ESRT_SUBJECT_PREFIX;
  const durable = options.durable ?? ACK_DURABLE;
  const publishTimeoutMs = options.publishTimeoutMs ?? 5000;
  const ackWaitMs = options.ackWaitMs ?? 30_000;
  const maxRetryDelayMs = options.maxRetryDelayMs ?? 30_000;
  const log = logger("esrt-nats").child({ stream });
  const js = jetstream(nc, { timeout: publishTimeoutMs });
  const jsm = await jetstreamManager(nc, { timeout: publishTimeoutMs });
  const ackPrefix = `${prefix}.ack.`;
  const counters: EsrtNatsStats = {
    published: 0,
    publishFailures: 0,
    acksApplied: 0,
    acksRejected: 0,
    acksRetried: 0,
    lastPublishAt: null,
    lastAckAt: null,
    lastError: null,
  };

  await ensureEsrtStream(jsm, stream, prefix);
  const termTakesReason = versionAtLeast(nc.info?.version, [2, 10, 4]);

  async function ensureConsumer(): Promise<void> {
    const cfg: Partial<ConsumerConfig> = {
      durable_name: durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      filter_subject: `${prefix}.ack.>`,
      ack_wait: nanos(ackWaitMs),
      // bad acks are terminated; only transient failures come back, for as long as they last
      max_deliver: -1,
      max_ack_pending: 1000,
    };
    try {
      await jsm.consumers.add(stream, cfg);
    } catch (err) {
      await jsm.consumers.update(stream, durable, cfg).catch(() => {
        throw err;
      });
    }
  }

  function reject(m: JsMsg, reason: string, extra: Record<string, unknown> = {}): void {
    counters.acksRejected++;
    log.warn({ subject: m.subject, seq: m.seq, reason, ...extra }, "Pro-app ack refused");
    // a reason after +TERM is understood from NATS 2.10.4; older servers ignore the whole answer
    if (termTakesReason) m.term(reason);
    else m.term();
  }

  async function handleAck(m: JsMsg): Promise<void> {
    const token = m.subject.startsWith(ackPrefix) ? m.subject.slice(ackPrefix.length) : "";
    const uniqueId = subjectUniqueId(token);
    if (!uniqueId) return reject(m, "the subject does not end in a valid uniqueId");
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(m.data));
    } catch {
      return reject(m, "the body is not JSON", { uniqueId });
    }
    const parsed = natsAckSchema.safeParse(body);
    if (!parsed.success) {
      return reject(m, `the body is not {"version": <a whole number from 1>}`, { uniqueId });
    }
    const { version } = parsed.data;
    try {
      await acknowledge(db, { uniqueId, version, via: "nats" });
    } catch (err) {
      if (isAppError(err) && (err.code === "NOT_FOUND" || err.code === "CONFLICT")) {
        return reject(m, err.message, { uniqueId, version });
      }
      const delay = Math.min(1000 * 2 ** Math.min(m.info.deliveryCount - 1, 10), maxRetryDelayMs);
      counters.acksRetried++;
      counters.lastError = err instanceof Error ? err.message : String(err);
      log.warn({ err, uniqueId, version, delay }, "Pro-app ack not applied; it will be tried again");
      m.nak(delay);
      return;
    }
    counters.acksApplied++;
    counters.lastAckAt = new Date();
    await m.ackAck().catch((err: unknown) => log.debug({ err }, "ack confirmation lost"));
  }

  await ensureConsumer();
  const ackConsumer = consumeDurable({
    js,
    stream,
    durable,
    batch: 64,
    log: log.child({ durable }),
    label: "ack consumer",
    recreate: async () => {
      await ensureEsrtStream(jsm, stream, prefix);
      await ensureConsumer();
    },
    handle: async (m) => {
      try {
        await handleAck(m);
      } catch (err) {
        // never let one message stop the loop; it comes back after ack_wait
        log.error({ err, subject: m.subject }, "Pro-app ack handler failed");
      }
    },
  });

  async function publishOnce(subject: string, data: string, msgID: string): Promise<void> {
    await js.publish(subject, data, {
      msgID,
      timeout: publishTimeoutMs,
      expect: { streamName: stream },
    });
  }

  return {
    stream,
    subjectPrefix: prefix,

    async publishSnapshot({ uniqueId, version, payload }) {
      if (!subjectUniqueId(uniqueId)) {
        throw new TypeError(`uniqueId ${JSON.stringify(uniqueId)} cannot be a NATS subject token`);
      }
      const parsed = userSyncPayloadSchema.safeParse(payload);
      if (!parsed.success || parsed.data.data.uniqueId !== uniqueId || parsed.data.data.version !== version) {
        throw new TypeError(`the payload is not the user.sync payload of ${uniqueId} at version ${version}`);
      }
      const subject = userSubject(prefix, uniqueId);
      const data = JSON.stringify(payload);
      const msgID = `${uniqueId}:${version}`;
      try {
        try {
          await publishOnce(subject, data, msgID);
        } catch (err) {
          // the stream may have vanished (deleted, or NATS restarted without its storage)
          let recreated = false;
          try {
            await ensureEsrtStream(jsm, stream, prefix);
            recreated = true;
          } catch {
            // NATS is away: report the publish error
          }
          if (!recreated) throw err;
          await publishOnce(subject, data, msgID);
        }
      } catch (err) {
        counters.publishFailures++;
        counters.lastError = err instanceof Error ? err.message : String(err);
        throw err;
      }
      counters.published++;
      counters.lastPublishAt = new Date();
    },

    stats() {
      return { ...counters };
    },

    async pendingAcks() {
      try {
        const info = await jsm.consumers.info(stream, durable);
        return info.num_pending + info.num_ack_pending;
      } catch {
        return null;
      }
    },

    async stop() {
      await ackConsumer.stop();
    },
  };
}
