import type { Db } from "../db";

export interface EventFigures {
  /** events recorded in the outbox and not yet published */
  outboxBacklog: number;
  /** the oldest unpublished event's time, null when none waits */
  oldestUnpublishedAt: Date | null;
  /** events a consumer gave up on (dead_letters) */
  deadLetters: number;
}

/**
 * The event pipeline's health for the admin dashboard: the outbox backlog and the dead letters.
 * @throws the database driver's error.
 */
export async function eventFigures(props: { db: Db }): Promise<EventFigures> {
  const [row] = await props.db.prisma.$queryRaw<EventFigures[]>`
    SELECT (SELECT count(*)::int FROM outbox_events WHERE "publishedAt" IS NULL) AS "outboxBacklog",
           (SELECT min("createdAt") FROM outbox_events WHERE "publishedAt" IS NULL) AS "oldestUnpublishedAt",
           (SELECT count(*)::int FROM dead_letters) AS "deadLetters"`;
  return row ?? { outboxBacklog: 0, oldestUnpublishedAt: null, deadLetters: 0 };
}
