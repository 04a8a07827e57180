import { v7 as uuidv7 } from "uuid";
import { z } from "zod";

/** Who caused an event: a signed-in user, an administrator, or the system itself. */
export const actorSchema = z
  .object({
    userId: z.number().int().positive().optional(),
    kind: z.enum(["user", "system", "admin"]),
  })
  .nullable();

export type Actor = z.infer<typeof actorSchema>;

/**
 * The wire format of every event, in the outbox and on the bus. The payload is checked against the
 * schema of its type by `parseEnvelope` in ./index.
 */
export const envelopeSchema = z.object({
  id: z.uuidv7(),
  type: z.string().regex(/^[a-z]+\.[a-z_]+$/),
  version: z.number().int().positive(),
  occurredAt: z.iso.datetime({ offset: true }),
  actor: actorSchema,
  correlationId: z.string().min(1).max(200),
  payload: z.unknown(),
});

/**
 * An envelope around one domain event `E` (defaults to any event). Distributes over a union, so an
 * `Envelope<DomainEvent>` narrows its payload when its `type` is checked.
 */
export type Envelope<E extends AnyEvent = AnyEvent> = E extends AnyEvent
  ? {
      id: string;
      type: E["type"];
      version: E["version"];
      occurredAt: string;
      actor: Actor;
      correlationId: string;
      payload: E["payload"];
    }
  : never;

type AnyEvent = { type: string; version: number; payload: unknown };

/** A new event id: a UUIDv7, so ids sort by creation time. */
export function newEventId(): string {
  return uuidv7();
}
