import {
  AckPolicy,
  type ConsumerConfig,
  DeliverPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  type JsMsg,
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
} from "@nats-io/jetstream";
import { type NatsConnection, nanos } from "@nats-io/transport-node";
import { deploymentName } from "../config";
import { logger } from "../logger";
import { consumeDurable } from "./durableConsume";
import type { EventTransport, SubscribeOptions, Subscription, TransportMessage } from "./transport";
import { assertDurableName, backoffFor, subjectMatches } from "./transport";

export interface JetStreamTransportOptions {
  /** the connection, from connectNats; the transport does not close it */
  nc: NatsConnection;
  /** stream name (default: the process-wide EVENT_STREAM, once resolved) */
  stream?: string;
  /** the stream holds `${subjectPrefix}.>` (default: the process-wide SUBJECT_PREFIX, once resolved) */
  subjectPrefix?: string;
  /** Nats-Msg-Id dedupe window (default 2 minutes) */
  duplicateWindowMs?: number;
  /** how long a publish waits for the stream's acknowledgement (default 3 s) */
  publishTimeoutMs?: number;
  /** how long the stream keeps messages (default 14 days) */
  maxAgeMs?: number;
  /** time a delivery may stay unsettled before JetStream delivers it again (default 30 s); long
   * handlers are kept alive with progress acks */
  ackWaitMs?: number;
  /** messages buffered per subscription (default 16) */
  batch?: number;
}

const isApiError = (err: unknown, code: number) => err instanceof JetStreamApiError && err.code === code;

function versionAtLeast(version: string | undefined, major: number, minor: number): boolean {
  const [a = 0, b = 0] = (version ?? "0.0").split(".").map((p) => Number.parseInt(p, 10));
  return a > major || (a === major && b >= minor);
}

/**
 * The event bus on NATS JetStream: one file-backed stream holding `${prefix}.>` with a 2-minute
 * duplicate window, durable pull consumers with explicit acks. A stream or consumer that vanishes
 * (deleted, or NATS restarted without its storage) is created again and consumption resumes.
 * @throws Error when JetStream is not available or the stream cannot be created.
 */
export async function jetStreamTransport(options: JetStreamTransportOptions): Promise<EventTransport> {
  const { nc } = options;
  const stream = options.stream ?? deploymentName("EVENT_STREAM");
  const prefix = options.subjectPrefix ?? deploymentName("SUBJECT_PREFIX");
  const publishTimeoutMs = options.publishTimeoutMs ?? 3000;
  const ackWaitMs = options.ackWaitMs ?? 30_000;
  const batch = options.batch ?? 16;
  const log = logger("jetstream").child({ stream });
  const js = jetstream(nc, { timeout: publishTimeoutMs });
  const jsm = await jetstreamManager(nc, { timeout: publishTimeoutMs });
  const subscriptions = new Set<Subscription>();

  async function ensureStream(): Promise<void> {
    try {
      await jsm.streams.info(stream);
      return;
    } catch (err) {
      if (!isApiError(err, JetStreamApiCodes.StreamNotFound)) throw err;
    }
    try {
      await jsm.streams.add({
        name: stream,
        subjects: [`${prefix}.>`],
        storage: StorageType.File,
        retention: RetentionPolicy.Limits,
        duplicate_window: nanos(options.duplicateWindowMs ?? 120_000),
        max_age: nanos(options.maxAgeMs ?? 14 * 24 * 3600_000),
      });
      log.info({ subjects: `${prefix}.>` }, "created stream");
    } catch (err) {
      // another process may have created it at the same moment
      await jsm.streams.info(stream).catch(() => {
        throw err;
      });
    }
  }

  await ensureStream();

  /** Creates or updates the durable; returns the subjects the client must filter itself. */
  async function ensureConsumer(opts: SubscribeOptions): Promise<string[] | undefined> {
    const multi = versionAtLeast(nc.info?.version, 2, 10);
    const [only] = opts.subjects;
    const filter: Partial<ConsumerConfig> =
      opts.subjects.length === 1 && only
        ? { filter_subject: only }
        : multi
          ? { filter_subjects: opts.subjects }
          : { filter_subject: `${prefix}.>` };
    const cfg: Partial<ConsumerConfig> = {
      durable_name: opts.durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: nanos(ackWaitMs),
      max_deliver: opts.maxDeliver,
      max_ack_pending: 1000,
      ...filter,
    };
    try {
      await jsm.consumers.add(stream, cfg);
    } catch (err) {
      await jsm.consumers.update(stream, opts.durable, cfg).catch(() => {
        throw err;
      });
    }
    return "filter_subjects" in filter || opts.subjects.length === 1 ? undefined : opts.subjects;
  }

  function wrap(m: JsMsg, backoffMs: number[]): { msg: TransportMessage; settled: () => boolean } {
    let settled = false;
    const once = (fn: () => Promise<void> | void) => async () => {
      if (settled) return;
      settled = true;
      await fn();
    };
    const msg: TransportMessage = {
      subject: m.subject,
      data: m.data,
      deliveryCount: m.info.deliveryCount,
      ack: once(async () => {
        await m.ackAck();
      }),
      nak: (delayMs?: number) => once(() => m.nak(delayMs ?? backoffFor(backoffMs, m.info.deliveryCount)))(),
      term: once(() => m.term()),
    };
    return { msg, settled: () => settled };
  }

  async function handle(m: JsMsg, opts: SubscribeOptions, clientFilter: string[] | undefined): Promise<void> {
    if (clientFilter && !clientFilter.some((f) => subjectMatches(f, m.subject))) {
      m.ack();
      return;
    }
    const { msg, settled } = wrap(m, opts.backoffMs);
    const keepAlive = setInterval(
      () => {
        if (!settled()) m.working();
      },
      Math.max(ackWaitMs / 3, 100),
    );
    try {
      await opts.handler(msg);
    } catch (err) {
      log.warn({ err, durable: opts.durable, subject: m.subject }, "handler failed");
    } finally {
      clearInterval(keepAlive);
    }
    if (!settled()) await msg.nak().catch(() => undefined);
  }

  return {
    kind: "jetstream",

    async publish(subject, msgId, data) {
      try {
        await js.publish(subject, data, { msgID: msgId, timeout: publishTimeoutMs });
      } catch (err) {
        // the stream may have vanished (deleted, or NATS restarted without its storage)
        let recreated = false;
        try {
          await ensureStream();
          recreated = true;
        } catch {
          // the bus is unreachable: report the publish error
        }
        if (!recreated) throw err;
        await js.publish(subject, data, { msgID: msgId, timeout: publishTimeoutMs });
      }
    },

    async subscribe(opts) {
      assertDurableName(opts.durable);
      let clientFilter = await ensureConsumer(opts);
      const consumer = consumeDurable({
        js,
        stream,
        durable: opts.durable,
        batch,
        concurrency: opts.concurrency,
        log: log.child({ durable: opts.durable }),
        label: "consumer",
        recreate: async () => {
          await ensureStream();
          clientFilter = await ensureConsumer(opts);
        },
        handle: (m) => handle(m, opts, clientFilter),
      });

      const subscription: Subscription = {
        async stop() {
          subscriptions.delete(subscription);
          await consumer.stop();
        },
      };
      subscriptions.add(subscription);
      return subscription;
    },

    async pending(durable) {
      try {
        const info = await jsm.consumers.info(stream, durable);
        return info.num_pending + info.num_ack_pending;
      } catch (err) {
        if (isApiError(err, JetStreamApiCodes.ConsumerNotFound)) return 0;
        if (isApiError(err, JetStreamApiCodes.StreamNotFound)) return 0;
        throw err;
      }
    },

    async state() {
      const info = await jsm.streams.info(stream);
      const consumers = await jsm.consumers.list(stream).next();
      return {
        stream,
        messages: info.state.messages,
        bytes: info.state.bytes,
        consumers: consumers.map((c) => ({
          durable: c.name,
          pending: c.num_pending,
          ackPending: c.num_ack_pending,
          redelivered: c.num_redelivered,
          waiting: c.num_waiting,
        })),
      };
    },

    async close() {
      await Promise.all([...subscriptions].map((s) => s.stop()));
    },
  };
}
