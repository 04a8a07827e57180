import { config, setConfig } from "../../config";
import type { Db } from "../../db";
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
