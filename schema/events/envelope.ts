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

/** A deployment id (services/shared/deployment.ts): short, safe in NATS subjects and Redis keys. */
export const deploymentIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);

/** A W3C trace-context header's value; anything else is read as absent. */
const traceField = z.string().max(512).optional().catch(undefined);

/**
 * The wire format of every event, in the outbox and on the bus. The payload is checked against the
 * schema of its type by `parseEnvelope` in ./index.
 *
 * Versioning: the envelope has no version of its own. A field is added to it only as an optional
 * one, which older readers ignore (zod drops unknown keys) and newer readers do without, so old rows
 * and old publishers stay readable. A payload change that an older reader would misread gets a new
 * `version` of its event type; an added optional payload field does not.
 *
 * `deployment` (added after version 1 of every event, hence optional): the id of the deployment
 * whose outbox the event came from. The relay stamps it on publish; outbox rows written before it
 * existed carry none, and a consumer takes such an event as its own only when its own outbox holds
 * the event's id.
 *
 * `traceparent` and `tracestate` (added with tracing, issue 22, hence optional): the W3C trace
 * context of the span that wrote the event (in the outbox) or published it (on the bus), so that the
 * consumers' work joins the trace of the request that caused it. Absent while tracing is off; a value
 * that is not a string of at most 512 characters is dropped (read as absent), never a reason to
 * refuse the event.
 */
export const envelopeSchema = z.object({
  id: z.uuidv7(),
  type: z.string().regex(/^[a-z]+\.[a-z_]+$/),
  version: z.number().int().positive(),
  occurredAt: z.iso.datetime({ offset: true }),
  actor: actorSchema,
  correlationId: z.string().min(1).max(200),
  deployment: deploymentIdSchema.optional(),
  traceparent: traceField,
  tracestate: traceField,
  payload: z.unknown(),
});

/** The fields of an envelope around an event of type `T`, version `V` and payload `P`. */
export interface EnvelopeFields<T extends string, V extends number, P> {
  id: string;
  type: T;
  version: V;
  occurredAt: string;
  actor: Actor;
  correlationId: string;
  /**
   * the publishing deployment: stamped by the relay, so absent from what `emit` returns (and from
   * envelopes written before it existed)
   */
  deployment?: string;
  /** the W3C trace context of the span that wrote or published the event (absent: not traced) */
  traceparent?: string;
  tracestate?: string;
  payload: P;
}

/**
 * An envelope around one domain event `E` (defaults to any event). Distributes over a union, so an
 * `Envelope<DomainEvent>` narrows its payload when its `type` is checked.
 */
export type Envelope<E extends AnyEvent = AnyEvent> = E extends AnyEvent
  ? EnvelopeFields<E["type"], E["version"], E["payload"]>
  : never;

type AnyEvent = { type: string; version: number; payload: unknown };

/** A new event id: a UUIDv7, so ids sort by creation time. */
export function newEventId(): string {
  return uuidv7();
}
