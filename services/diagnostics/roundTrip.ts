import { roundTripInputSchema } from "@schema/validation/diagnostics";
import { services } from "@services/registry";
import { audit } from "@services/shared/audit";
import type { Db } from "@services/shared/db";
import { AppError } from "@services/shared/errors";
import { emit } from "@services/shared/events/outbox";
import { parse } from "@services/shared/validation";

/** How long the page waits for every consumer before it names those that did not answer. */
export const ROUND_TRIP_TIMEOUT_MS = 15_000;

const ROUND_TRIP_TYPE = "diagnostics.round_trip_requested";

/** One consumer's answer to a round trip. */
export interface RoundTripAnswer {
  consumer: string;
  service: string;
  /** when its inbox recorded the event; null while it has not answered */
  handledAt: Date | null;
  /** handledAt minus the outbox commit */
  msAfterCommit: number | null;
}

export interface RoundTrip {
  eventId: string;
  /** the outbox row's time (the event commits with it) */
  committedAt: Date;
  /** when the relay published it; null while it waits in the outbox */
  publishedAt: Date | null;
  answers: RoundTripAnswer[];
  /** every consumer answered */
  complete: boolean;
  /** ROUND_TRIP_TIMEOUT_MS passed with a consumer still silent */
  timedOut: boolean;
}

/** Every consumer of the round-trip event, by service (each service registers one). */
export function roundTripConsumers(): { service: string; consumer: string }[] {
  return Object.entries(services).flatMap(([service, s]) =>
    s.consumers.filter((c) => c.events.includes(ROUND_TRIP_TYPE)).map((c) => ({ service, consumer: c.name })),
  );
}

/**
 * Starts a round trip: records diagnostics.round_trip_requested in the outbox, like any use case,
 * and audits it. The relay publishes it and each service's round-trip consumer answers by recording
 * it in its inbox. Answers the event's id, for {@link roundTripResult}.
 * @throws the database driver's error.
 */
export async function startRoundTrip(props: { db: Db; actorId: number }): Promise<string> {
  return props.db.prisma.$transaction(async (tx) => {
    const envelope = await emit(
      tx,
      { type: ROUND_TRIP_TYPE, payload: { requestedBy: props.actorId } },
      { actor: { kind: "admin", userId: props.actorId } },
    );
    await audit(tx, {
      action: "diagnostics.round_trip_started",
      actorId: props.actorId,
      targetType: "event",
      targetId: envelope.id,
      after: { eventId: envelope.id, consumers: roundTripConsumers().map((c) => c.consumer) },
    });
    return envelope.id;
  });
}

/**
 * A round trip's progress: when the event committed and was published, and per consumer when it
 * handled the event and how many ms after the commit.
 * @throws AppError VALIDATION_FAILED for an id that is not a UUID, NOT_FOUND for an unknown one (or
 * the id of another kind of event).
 */
export async function roundTripResult(props: { db: Db; input: unknown; now?: Date }): Promise<RoundTrip> {
  const { eventId } = parse(roundTripInputSchema, props.input);
  const row = await props.db.prisma.outboxEvent.findUnique({ where: { id: eventId } });
  if (!row || row.type !== ROUND_TRIP_TYPE) throw new AppError("NOT_FOUND", "No such round trip");
  const handled = await props.db.prisma.processedEvent.findMany({ where: { eventId } });
  const byConsumer = new Map(handled.map((h) => [h.consumer, h.processedAt]));
  const answers = roundTripConsumers().map(({ service, consumer }): RoundTripAnswer => {
    const handledAt = byConsumer.get(consumer) ?? null;
    return {
      consumer,
      service,
      handledAt,
      msAfterCommit: handledAt ? Math.max(0, handledAt.getTime() - row.createdAt.getTime()) : null,
    };
  });
  const complete = answers.every((a) => a.handledAt !== null);
  const now = props.now ?? new Date();
  return {
    eventId,
    committedAt: row.createdAt,
    publishedAt: row.publishedAt,
    answers,
    complete,
    timedOut: !complete && now.getTime() - row.createdAt.getTime() > ROUND_TRIP_TIMEOUT_MS,
  };
}
