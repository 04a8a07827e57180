import { v7 as uuidv7 } from "uuid";
import {
  type DomainEvent,
  type Envelope,
  type EventOf,
  type EventType,
  parseEnvelope,
  subjectFor,
} from "../../../schema/events";
import { config } from "../config";
import type { Db, Tx } from "../db";
import { logger } from "../logger";
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
}

/** A consumer ready for `startConsumers`. */
export interface Consumer {
  name: string;
  events: readonly EventType[];
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
  return {
    name: definition.name,
    events,
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
  /** subject prefix (default config().SUBJECT_PREFIX) */
  subjectPrefix?: string;
  /** longest a handler's transaction may run (default 60 s) */
  handlerTimeoutMs?: number;
}

export interface RunningConsumers {
  stop(): Promise<void>;
  /** unsettled messages per consumer name */
  lag(): Promise<Record<string, number>>;
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
 * @throws Error when a subscription cannot be created (the others are stopped).
 */
export async function startConsumers(options: StartConsumersOptions): Promise<RunningConsumers> {
  const { db, transport, consumers } = options;
  const maxDeliver = options.maxDeliver ?? 5;
  const backoffMs = options.backoffMs ?? [1000, 5000, 30_000, 120_000];
  const prefix = options.subjectPrefix ?? config().SUBJECT_PREFIX;
  const timeout = options.handlerTimeoutMs ?? 60_000;
  const decoder = new TextDecoder();
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
    return async (msg: TransportMessage): Promise<void> => {
      const text = decoder.decode(msg.data);
      let raw: unknown;
      let envelope: Envelope<DomainEvent>;
      try {
        raw = JSON.parse(text);
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
      const eventLog = log.child({ eventId: envelope.id, type: envelope.type, delivery: msg.deliveryCount });
      try {
        const applied = await db.prisma.$transaction(
          async (tx) => {
            const inserted = await tx.$executeRaw`
              INSERT INTO processed_events (consumer, "eventId") VALUES (${consumer.name}, ${envelope.id}::uuid)
              ON CONFLICT DO NOTHING`;
            if (inserted === 0) return false;
            await consumer.handle(envelope, tx);
            return true;
          },
          { maxWait: 10_000, timeout },
        );
        if (!applied) eventLog.debug("already processed; acknowledging the redelivery");
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
          durable: consumer.name,
          subjects: consumer.events.map((type) => subjectFor(prefix, type)),
          maxDeliver,
          backoffMs,
          handler: handlerFor(consumer),
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
        consumers.map(async (c): Promise<[string, number]> => [c.name, await transport.pending(c.name)]),
      );
      return Object.fromEntries(entries);
    },
  };
}
