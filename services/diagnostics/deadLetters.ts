import { parseEnvelope } from "@schema/events";
import {
  DIAGNOSTICS_MESSAGES,
  deadLetterPageSchema,
  retryDeadLetterSchema,
} from "@schema/validation/diagnostics";
import { services } from "@services/registry";
import { audit } from "@services/shared/audit";
import { idCursor } from "@services/shared/cursor";
import type { Db } from "@services/shared/db";
import { AppError } from "@services/shared/errors";
import { applyEvent } from "@services/shared/events/consumer";
import { logger } from "@services/shared/logger";
import { parse } from "@services/shared/validation";

/** A dead letter as the testing tools list it (the envelope's payload is not shown). */
export interface DeadLetterView {
  id: number;
  consumer: string;
  eventId: string;
  type: string;
  subject: string;
  error: string;
  attempts: number;
  createdAt: Date;
}

export interface DeadLetterPage {
  nodes: DeadLetterView[];
  /** the cursor of the next page; null on the last */
  endCursor: string | null;
  hasNextPage: boolean;
}

/** What a retry did: the handler ran now, or the consumer had already applied the event. */
export interface RetryOutcome {
  id: number;
  consumer: string;
  eventId: string;
  outcome: "delivered" | "already_applied";
}

interface Row {
  id: number;
  consumer: string;
  eventId: string;
  subject: string;
  envelope: unknown;
  error: string;
  attempts: number;
  createdAt: Date;
}

function typeOf(envelope: unknown): string {
  if (typeof envelope === "object" && envelope !== null && "type" in envelope) {
    return String(envelope.type).slice(0, 100);
  }
  return "unreadable";
}

function view(row: Row): DeadLetterView {
  return {
    id: row.id,
    consumer: row.consumer,
    eventId: row.eventId,
    type: typeOf(row.envelope),
    subject: row.subject,
    error: row.error.slice(0, 1000),
    attempts: row.attempts,
    createdAt: row.createdAt,
  };
}

const cursor = idCursor(
  "dl",
  () =>
    new AppError("VALIDATION_FAILED", DIAGNOSTICS_MESSAGES.cursor, {
      details: { errors: { after: [DIAGNOSTICS_MESSAGES.cursor] } },
    }),
);

/**
 * A page of dead letters (events a consumer gave up on), newest first, by keyset over the id.
 * @throws AppError VALIDATION_FAILED for a bad page size or cursor.
 */
export async function listDeadLetters(props: { db: Db; input: unknown }): Promise<DeadLetterPage> {
  const input = parse(deadLetterPageSchema, props.input);
  const rows = await props.db.prisma.deadLetter.findMany({
    where: input.after ? { id: { lt: cursor.decode(input.after) } } : {},
    orderBy: { id: "desc" },
    take: input.first + 1,
  });
  const nodes = rows.slice(0, input.first).map(view);
  const last = nodes[nodes.length - 1];
  const hasNextPage = rows.length > input.first;
  return { nodes, hasNextPage, endCursor: hasNextPage && last ? cursor.encode(last.id) : null };
}

/**
 * Delivers a dead letter again to the one consumer that gave up on it, in this process: the
 * consumer's own handler inside the same at-most-once transaction as a delivery from the bus
 * (processed_events first), which also removes the dead letter and writes the audit row. A
 * consumer that had already applied the event (a retry of a retry) runs nothing and the row goes.
 * When the handler fails again, nothing changes and the reason is answered as CONFLICT.
 * @throws AppError VALIDATION_FAILED for a bad id, NOT_FOUND for an unknown dead letter,
 * UNPROCESSABLE when its envelope cannot be read or its consumer no longer exists, CONFLICT when the
 * handler fails again.
 */
export async function retryDeadLetter(props: {
  db: Db;
  input: unknown;
  actorId: number;
}): Promise<RetryOutcome> {
  const { id } = parse(retryDeadLetterSchema, props.input);
  const row = await props.db.prisma.deadLetter.findUnique({ where: { id } });
  if (!row) throw new AppError("NOT_FOUND", "No such dead letter");
  const consumer = Object.values(services)
    .flatMap((s) => s.consumers)
    .find((c) => c.name === row.consumer);
  if (!consumer) {
    throw new AppError("UNPROCESSABLE", `No consumer named ${row.consumer} runs in this portal any more`);
  }
  let envelope: ReturnType<typeof parseEnvelope>;
  try {
    envelope = parseEnvelope(row.envelope);
  } catch (err) {
    throw new AppError("UNPROCESSABLE", `The event cannot be read: ${(err as Error).message}`.slice(0, 500));
  }
  let removed = 0;
  try {
    const applied = await applyEvent({
      db: props.db,
      consumer,
      envelope,
      inTx: async (tx) => {
        // the row still there: a second retry at the same moment finds none and rolls back
        removed = await tx.$executeRaw`DELETE FROM dead_letters WHERE id = ${id}`;
        if (removed === 0) throw new AppError("NOT_FOUND", "No such dead letter");
        await audit(tx, {
          action: "diagnostics.dead_letter_retried",
          actorId: props.actorId,
          targetType: "dead_letter",
          targetId: id,
          before: {
            consumer: row.consumer,
            eventId: row.eventId,
            attempts: row.attempts,
            error: row.error.slice(0, 500),
          },
          after: null,
        });
      },
    });
    return {
      id,
      consumer: row.consumer,
      eventId: row.eventId,
      outcome: applied ? "delivered" : "already_applied",
    };
  } catch (err) {
    if (err instanceof AppError) throw err;
    logger("diagnostics").warn({ err, deadLetter: id }, "dead letter retry failed");
    const reason = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    throw new AppError("CONFLICT", `The consumer failed again: ${reason}`.slice(0, 500));
  }
}
