import {
  type DomainEvent,
  type Envelope,
  type EventOf,
  type EventType,
  parseEnvelope,
  subjectFor,
} from "@schema/events";
import { v7 as uuidv7 } from "uuid";
import { deploymentName } from "../config";
import type { Db, Tx } from "../db";
import { deploymentOf } from "../deployment";
import { logger } from "../logger";
import { contextOf, inSpan, MESSAGING, SpanKind, tracingEnabled } from "../telemetry";
import {
  assertDurableName,
  backoffFor,
  type EventTransport,
  type Subscription,
  type TransportMessage,
} from "./transport";

/** A consumer: a durable name, the events it handles, and an idempotent handler. */
export interface ConsumerDefinition<T extends EventType = EventType> {
  /** durable name, unique in the portal (letters, digits, '_' and '-') */
  name: string;
  events: readonly T[];
  /** runs inside the transaction that records the event as processed; throw to retry later */
  handle(envelope: Envelope<EventOf<T>>, tx: Tx): Promise<void>;
  /**
   * Events handled at once (default 1: one after another, in stream order). More only for a handler
   * whose outcome does not depend on order (it keeps the newest version, say).
   */
  concurrency?: number;
  /**
   * Events applied together in one transaction, up to this many (default 1: each in its own). More
   * only for a handler whose outcome does not depend on order: the events waiting when a transaction
   * starts are applied in it one after another, and a batch that fails is applied again one event
   * at a time, so only the failing event is retried. Batches of one consumer run one at a time.
   */
  batch?: number;
}

/** A consumer ready for `startConsumers`. */
export interface Consumer {
  name: string;
  events: readonly EventType[];
  /** events handled at once (1: in stream order) */
  concurrency: number;
  /** events applied together in one transaction, at most (1: each in its own) */
  batch: number;
  /** false when the envelope is of a type the consumer does not handle */
  accepts(envelope: Envelope<DomainEvent>): boolean;
  handle(envelope: Envelope<DomainEvent>, tx: Tx): Promise<void>;
}

/**
 * Declares a consumer of some event types; its handler receives envelopes narrowed to them.
 * @throws Error when the name is not a valid durable name or no event is given.
 */
export function defineConsumer<T extends EventType>(definition: ConsumerDefinition<T>): Consumer {
  assertDurableName(definition.name);
  if (definition.events.length === 0) throw new Error(`consumer ${definition.name} handles no events`);
  const events: readonly EventType[] = definition.events;
  const isFor = (env: Envelope<DomainEvent>): env is Envelope<EventOf<T>> => events.includes(env.type);
  const concurrency = definition.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new Error(`consumer ${definition.name}: concurrency must be a whole number from 1`);
  }
  const batch = definition.batch ?? 1;
  if (!Number.isInteger(batch) || batch < 1) {
    throw new Error(`consumer ${definition.name}: batch must be a whole number from 1`);
  }
  return {
    name: definition.name,
    events,
    concurrency,
    batch,
    accepts: isFor,
    async handle(envelope, tx) {
      if (isFor(envelope)) await definition.handle(envelope, tx);
    },
  };
}

export interface StartConsumersOptions {
  db: Db;
  transport: EventTransport;
  consumers: Consumer[];
  /** deliveries before an event goes to dead_letters (default 5) */
  maxDeliver?: number;
  /** redelivery delays after a failure (default 1 s, 5 s, 30 s, 2 min) */
  backoffMs?: number[];
  /** subject prefix (default: the process-wide SUBJECT_PREFIX, once resolved) */
  subjectPrefix?: string;
  /** longest a handler's transaction may run (default 60 s) */
  handlerTimeoutMs?: number;
  /** the deployment whose events these consumers apply (default: the deployment of `db`) */
  deployment?: string;
}

export interface RunningConsumers {
  stop(): Promise<void>;
  /** unsettled messages per consumer name */
  lag(): Promise<Record<string, number>>;
  /** events of another deployment acknowledged without effect, per consumer name, since start */
  dropped(): Record<string, number>;
}

/**
 * Applies one event to one consumer at most once: in one transaction, records `(consumer, eventId)`
 * in processed_events and runs the handler; an event already recorded runs nothing. `inTx` runs in
 * the same transaction after the handler (the dead-letter retry removes its row there). Answers
 * whether the handler ran.
 * @throws the handler's or the database's error (nothing is then recorded).
 */
export async function applyEvent(props: {
  db: Db;
  consumer: Consumer;
  envelope: Envelope<DomainEvent>;
  timeoutMs?: number;
  inTx?: (tx: Tx) => Promise<void>;
}): Promise<boolean> {
  return (await applyEvents({ ...props, envelopes: [props.envelope] })) > 0;
}

/**
 * Applies several events to one consumer in one transaction, each at most once: the inbox rows of
 * all are recorded by one statement, then the handler runs for each one not recorded before, in the
 * order given (each in its own span while tracing is on), and `inTx` last. Answers how many the
 * handler ran for.
 * @throws the handler's or the database's error (nothing is then recorded).
 */
export async function applyEvents(props: {
  db: Db;
  consumer: Consumer;
  envelopes: readonly Envelope<DomainEvent>[];
  timeoutMs?: number;
  inTx?: (tx: Tx) => Promise<void>;
}): Promise<number> {
  const { consumer, envelopes } = props;
  return props.db.prisma.$transaction(
    async (tx) => {
      const ids = envelopes.map((e) => e.id);
      const inserted = await tx.$queryRaw<{ eventId: string }[]>`
        INSERT INTO processed_events (consumer, "eventId")
        SELECT ${consumer.name}, id FROM unnest(${ids}::uuid[]) AS id
        ON CONFLICT DO NOTHING
        RETURNING "eventId"::text AS "eventId"`;
      const fresh = new Set(inserted.map((r) => r.eventId.toLowerCase()));
      let ran = 0;
      for (const envelope of envelopes) {
        // an event delivered twice into one batch runs once
        if (!fresh.delete(envelope.id.toLowerCase())) continue;
        await (tracingEnabled() ? handleTraced(consumer, envelope, tx) : consumer.handle(envelope, tx));
        ran += 1;
      }
      await props.inTx?.(tx);
      return ran;
    },
    { maxWait: 10_000, timeout: props.timeoutMs ?? 60_000 },
  );
}

/**
 * Runs a consumer's handler inside a span (`process <type>`, a consumer's) whose parent is the trace
 * context the envelope carries (the relay's publish), so what the handler does (its queries, the
 * rows it queues with their trace context) belongs to the trace of the request behind the event.
 */
function handleTraced(consumer: Consumer, envelope: Envelope<DomainEvent>, tx: Tx): Promise<void> {
  return inSpan(
    {
      name: `process ${envelope.type}`,
      kind: SpanKind.CONSUMER,
      parent: contextOf(envelope),
      attributes: {
        [MESSAGING.system]: "nats",
        [MESSAGING.operationType]: "process",
        [MESSAGING.operationName]: "process",
        [MESSAGING.consumerGroupName]: consumer.name,
        [MESSAGING.messageId]: envelope.id,
        [MESSAGING.conversationId]: envelope.correlationId,
      },
    },
    () => consumer.handle(envelope, tx),
  );
}

/**
 * Collects a batch consumer's events as they arrive and applies those waiting together (see
 * `ConsumerDefinition.batch`), one batch at a time. `apply` resolves true once the event's batch
 * committed, false when the batch failed (the caller then applies the event alone).
 */
function batcher(props: {
  db: Db;
  consumer: Consumer;
  timeoutMs: number;
}): (envelope: Envelope<DomainEvent>) => Promise<boolean> {
  const { consumer } = props;
  const log = logger("consumer").child({ consumer: consumer.name });
  const waiting: { envelope: Envelope<DomainEvent>; settle: (together: boolean) => void }[] = [];
  let draining = false;

  async function drain(): Promise<void> {
    // the events arriving in this turn of the event loop join the first batch
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (waiting.length > 0) {
      const batch = waiting.splice(0, consumer.batch);
      let together = true;
      try {
        await applyEvents({
          db: props.db,
          consumer,
          envelopes: batch.map((b) => b.envelope),
          timeoutMs: props.timeoutMs,
        });
      } catch (err) {
        together = false;
        if (batch.length > 1)
          log.debug({ err, events: batch.length }, "batch failed; applying its events one by one");
      }
      for (const b of batch) b.settle(together);
    }
  }

  function kick(): void {
    if (draining) return;
    draining = true;
    void drain().finally(() => {
      draining = false;
      // one that arrived as the last batch settled
      if (waiting.length > 0) kick();
    });
  }

  return (envelope) =>
    new Promise<boolean>((settle) => {
      waiting.push({ envelope, settle });
      kick();
    });
}

/** The durable name of a consumer of one deployment: its name, then the deployment id. */
export function durableName(consumer: string, deployment: string): string {
  return `${consumer}_${deployment}`;
}

/** The deployment an envelope says it comes from, read before the envelope is checked. */
function claimedDeployment(raw: unknown): string | undefined {
  if (typeof raw !== "object" || raw === null || !("deployment" in raw)) return undefined;
  return typeof raw.deployment === "string" ? raw.deployment : String(raw.deployment);
}

function errorText(err: unknown): string {
  return (err instanceof Error ? `${err.name}: ${err.message}` : String(err)).slice(0, 4000);
}

/**
 * Starts each consumer on its own durable subscription. Every event is applied at most once per
 * consumer: the inbox row (processed_events) and the handler's writes commit in one transaction
 * before the ack; a redelivery that finds the row is acked without running the handler. A failing
 * handler is retried with backoff; after maxDeliver deliveries the event goes to dead_letters.
 * An envelope that cannot be read goes to dead_letters at once.
 *
 * Only the deployment's own events are applied: an envelope stamped with another deployment's id
 * is acknowledged without effect (logged, counted in `dropped()`), even on a stream two deployments
 * were configured to share; one without a stamp (written before envelopes carried it) is applied
 * only when this database's outbox holds its id. Each consumer's durable is named for its deployment
 * (`durableName`), so deployments sharing a stream never take each other's deliveries.
 * @throws Error when a subscription cannot be created (the others are stopped), or the deployment
 * cannot be read from the database.
 */
export async function startConsumers(options: StartConsumersOptions): Promise<RunningConsumers> {
  const { db, transport, consumers } = options;
  const maxDeliver = options.maxDeliver ?? 5;
  const backoffMs = options.backoffMs ?? [1000, 5000, 30_000, 120_000];
  const prefix = options.subjectPrefix ?? deploymentName("SUBJECT_PREFIX");
  const timeout = options.handlerTimeoutMs ?? 60_000;
  const deployment = options.deployment ?? (await deploymentOf(db)).id;
  const decoder = new TextDecoder();
  const droppedCounts = new Map<string, number>();
  const names = new Set<string>();
  for (const c of consumers) {
    if (names.has(c.name)) throw new Error(`two consumers are named ${c.name}`);
    names.add(c.name);
  }

  async function deadLetter(
    consumer: Consumer,
    msg: TransportMessage,
    eventId: string,
    envelope: unknown,
    error: string,
  ): Promise<void> {
    await db.prisma.$executeRaw`
      INSERT INTO dead_letters (consumer, "eventId", subject, envelope, error, attempts)
      VALUES (${consumer.name}, ${eventId}::uuid, ${msg.subject}, ${JSON.stringify(envelope)}::jsonb, ${error},
        ${msg.deliveryCount})
      ON CONFLICT (consumer, "eventId") DO UPDATE
        SET error = EXCLUDED.error, attempts = EXCLUDED.attempts, envelope = EXCLUDED.envelope,
          subject = EXCLUDED.subject, "createdAt" = now()`;
  }

  function handlerFor(consumer: Consumer) {
    const log = logger("consumer").child({ consumer: consumer.name });
    const inBatch = consumer.batch > 1 ? batcher({ db, consumer, timeoutMs: timeout }) : undefined;
    const warnedAbout = new Set<string>();
    const dropForeign = async (msg: TransportMessage, from: string, eventId: unknown): Promise<void> => {
      droppedCounts.set(consumer.name, (droppedCounts.get(consumer.name) ?? 0) + 1);
      const fields = { subject: msg.subject, eventId, from, deployment };
      if (warnedAbout.has(from)) log.debug(fields, "another deployment's event dropped");
      else {
        warnedAbout.add(from);
        log.warn(
          fields,
          "dropped an event of another deployment: two portals share this stream (later ones are logged at debug)",
        );
      }
      await msg.ack();
    };
    return async (msg: TransportMessage): Promise<void> => {
      const text = decoder.decode(msg.data);
      let raw: unknown;
      let parseError: unknown;
      try {
        raw = JSON.parse(text);
      } catch (err) {
        parseError = err;
      }
      const claimed = claimedDeployment(raw);
      if (claimed !== undefined && claimed !== deployment) {
        const id = typeof raw === "object" && raw !== null && "id" in raw ? raw.id : undefined;
        await dropForeign(msg, claimed, id);
        return;
      }
      let envelope: Envelope<DomainEvent>;
      try {
        if (parseError !== undefined) throw parseError;
        envelope = parseEnvelope(raw);
      } catch (err) {
        const rawId = typeof raw === "object" && raw !== null && "id" in raw ? String(raw.id) : "";
        const eventId = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(rawId)
          ? rawId
          : uuidv7();
        log.error({ err, subject: msg.subject, eventId }, "unreadable event sent to dead letters");
        try {
          await deadLetter(
            consumer,
            msg,
            eventId,
            raw ?? { unparsed: text.slice(0, 10_000) },
            errorText(err),
          );
          await msg.term();
        } catch (dbErr) {
          log.error({ err: dbErr }, "could not record a dead letter; will retry");
          await msg.nak();
        }
        return;
      }
      if (!consumer.accepts(envelope)) {
        await msg.ack();
        return;
      }
      if (claimed === undefined) {
        // Published before envelopes carried their deployment: ours only if our outbox wrote it.
        let ours: boolean;
        try {
          const [row] = await db.prisma.$queryRaw<{ n: number }[]>`
            SELECT count(*)::int AS n FROM outbox_events WHERE id = ${envelope.id}::uuid`;
          ours = (row?.n ?? 0) > 0;
        } catch (err) {
          log.warn({ err, eventId: envelope.id }, "could not look up an unstamped event; will retry");
          await msg.nak(backoffFor(backoffMs, msg.deliveryCount));
          return;
        }
        if (!ours) {
          await dropForeign(msg, "unknown (unstamped)", envelope.id);
          return;
        }
      }
      const eventLog = log.child({ eventId: envelope.id, type: envelope.type, delivery: msg.deliveryCount });
      try {
        const together = inBatch ? await inBatch(envelope) : false;
        if (!together) {
          const applied = await applyEvent({ db, consumer, envelope, timeoutMs: timeout });
          if (!applied) eventLog.debug("already processed; acknowledging the redelivery");
        }
      } catch (err) {
        if (msg.deliveryCount >= maxDeliver) {
          eventLog.error({ err }, "handler failed for the last time; event sent to dead letters");
          try {
            await deadLetter(consumer, msg, envelope.id, envelope, errorText(err));
            await msg.term();
          } catch (dbErr) {
            eventLog.error({ err: dbErr }, "could not record a dead letter");
            await msg.nak();
          }
        } else {
          const delay = backoffFor(backoffMs, msg.deliveryCount);
          eventLog.warn({ err, retryInMs: delay }, "handler failed; will retry");
          await msg.nak(delay);
        }
        return;
      }
      await msg.ack();
    };
  }

  const subscriptions: Subscription[] = [];
  try {
    for (const consumer of consumers) {
      subscriptions.push(
        await transport.subscribe({
          durable: durableName(consumer.name, deployment),
          subjects: consumer.events.map((type) => subjectFor(prefix, type)),
          maxDeliver,
          backoffMs,
          handler: handlerFor(consumer),
          // a batch consumer takes in as many events as a batch holds while one is being applied
          concurrency: Math.max(consumer.concurrency, consumer.batch),
        }),
      );
    }
  } catch (err) {
    await Promise.all(subscriptions.map((s) => s.stop()));
    throw err;
  }

  return {
    async stop() {
      await Promise.all(subscriptions.map((s) => s.stop()));
    },
    async lag() {
      const entries = await Promise.all(
        consumers.map(
          async (c): Promise<[string, number]> => [
            c.name,
            await transport.pending(durableName(c.name, deployment)),
          ],
        ),
      );
      return Object.fromEntries(entries);
    },
    dropped() {
      return Object.fromEntries(consumers.map((c) => [c.name, droppedCounts.get(c.name) ?? 0]));
    },
  };
}
