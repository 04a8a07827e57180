import type { NatsConnection } from "@nats-io/transport-node";
import { config, setConfig } from "../../config";
import type { Db } from "../../db";
import { connectNats } from "../../nats";
import { type IsolatedDb, isolatedDb } from "../../testing/db";
import type { EventTransport } from "../transport";
import { uniqueBus } from "./bus";

/**
 * A migrated database of the test file's own: relay tests claim every unpublished outbox row, so
 * they must not share the run's database with other test files.
 */
export const eventsDatabase: () => Promise<IsolatedDb> = isolatedDb;

/** Gives the current test its own stream and subject prefix (emit reads SUBJECT_PREFIX from config). */
export function takeUniqueBus(): { stream: string; prefix: string } {
  const bus = uniqueBus();
  setConfig({ ...config(), EVENT_STREAM: bus.stream, SUBJECT_PREFIX: bus.prefix });
  return bus;
}

/** Marks rows left over by earlier tests as published, so each test starts with an empty backlog. */
export async function clearOutbox(db: Db): Promise<void> {
  await db.prisma.$executeRaw`UPDATE outbox_events SET "publishedAt" = now() WHERE "publishedAt" IS NULL`;
}

/** A transport that counts publish calls per message id (to prove a row is published once). */
export function countingTransport(inner: EventTransport): {
  transport: EventTransport;
  counts: Map<string, number>;
} {
  const counts = new Map<string, number>();
  return {
    counts,
    transport: {
      ...inner,
      kind: inner.kind,
      async publish(subject, msgId, data) {
        await inner.publish(subject, msgId, data);
        counts.set(msgId, (counts.get(msgId) ?? 0) + 1);
      },
      subscribe: (opts) => inner.subscribe(opts),
      pending: (durable) => inner.pending(durable),
      state: () => inner.state(),
      close: () => inner.close(),
    },
  };
}

/** The outbox's events whose payload's `key` is `id`, oldest first: each one's type and payload. */
export async function outboxEventsOf(
  db: Db,
  key: string,
  id: number,
): Promise<{ type: string; payload: Record<string, unknown> }[]> {
  const rows = await db.prisma.$queryRaw<{ type: string; envelope: { payload: Record<string, unknown> } }[]>`
    SELECT type, envelope FROM outbox_events
    WHERE (envelope->'payload'->>${key}::text)::int = ${id} ORDER BY "createdAt"`;
  return rows.map((r) => ({ type: r.type, payload: r.envelope.payload }));
}

/** A test file's events world: its own database and a connection to NATS. */
export interface EventsWorld {
  readonly db: Db;
  /** the database's address, for a second connection */
  readonly url: string;
  readonly nc: NatsConnection;
}

/**
 * Registers a test file's events world, made before its tests; after them the config is restored
 * (the tests change the stream and the subject prefix), the connection closed and the database
 * dropped. Read it inside hooks and tests.
 * @throws Error when read before it is made.
 */
export function registerEventsWorld(): EventsWorld {
  const original = config();
  let made: { isolated: IsolatedDb; nc: NatsConnection } | undefined;
  beforeAll(async () => {
    const isolated = await isolatedDb();
    made = { isolated, nc: await connectNats(process.env.NATS_URL ?? "nats://127.0.0.1:4222") };
  });
  afterAll(async () => {
    setConfig(original);
    await made?.nc.close();
    await made?.isolated.drop();
  });
  const world = () => {
    if (!made) throw new Error("the events world is not made yet: read it inside a hook or a test");
    return made;
  };
  return {
    get db() {
      return world().isolated.db;
    },
    get url() {
      return world().isolated.url;
    },
    get nc() {
      return world().nc;
    },
  };
}
