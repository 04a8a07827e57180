import {
  type Actor,
  type EnvelopeOf,
  type EventOf,
  type EventType,
  eventSchemas,
  newEventId,
  type PayloadOf,
  subjectFor,
  validateEvent,
} from "@schema/events";
import { config } from "../config";
import type { Tx } from "../db";
import { currentTraceContext, inSpan, MESSAGING, SpanKind, tracingEnabled } from "../telemetry";

export interface EmitMeta {
  /** who caused the event (default null: unknown) */
  actor?: Actor;
  /** ties together the events of one request or process (default: the event's own id) */
  correlationId?: string;
}

/** An event to emit; `version` defaults to the current version of its type. */
export interface EmitEvent<T extends EventType> {
  type: T;
  version?: EventOf<T>["version"];
  payload: PayloadOf<T>;
}

/**
 * Records a domain event in the transactional outbox, inside the caller's transaction: the event
 * exists if and only if the change that caused it commits. The relay publishes it afterwards.
 * While tracing is on, the write is a span (`create <type>`, a producer's) whose context the
 * envelope carries (`traceparent`), so the relay's publish and the consumers' work join the trace.
 * @throws InvalidEventError when the payload does not match its schema (unknown fields included).
 */
export async function emit<T extends EventType>(
  tx: Tx,
  event: EmitEvent<T>,
  meta: EmitMeta = {},
): Promise<EnvelopeOf<T>> {
  const version = event.version ?? eventSchemas[event.type].version;
  validateEvent({ type: event.type, version, payload: event.payload });
  const id = newEventId();
  const subject = subjectFor(config().SUBJECT_PREFIX, event.type);
  if (!tracingEnabled()) return write(tx, { subject, id, version, event, meta });
  return inSpan(
    {
      name: `create ${event.type}`,
      kind: SpanKind.PRODUCER,
      attributes: {
        [MESSAGING.system]: "nats",
        [MESSAGING.operationType]: "create",
        [MESSAGING.operationName]: "outbox write",
        [MESSAGING.destinationName]: subject,
        [MESSAGING.messageId]: id,
      },
    },
    () => write(tx, { subject, id, version, event, meta }),
  );
}

/** Writes the envelope's row (with the active span's trace context, if any). */
async function write<T extends EventType>(
  tx: Tx,
  props: {
    subject: string;
    id: string;
    version: EnvelopeOf<T>["version"];
    event: EmitEvent<T>;
    meta: EmitMeta;
  },
): Promise<EnvelopeOf<T>> {
  const { subject, id, version, event, meta } = props;
  const occurredAt = new Date();
  const envelope: EnvelopeOf<T> = {
    id,
    type: event.type,
    version,
    occurredAt: occurredAt.toISOString(),
    actor: meta.actor ?? null,
    correlationId: meta.correlationId ?? id,
    ...currentTraceContext(),
    payload: event.payload,
  };
  await tx.$executeRaw`
    INSERT INTO outbox_events (id, subject, type, envelope, "createdAt")
    VALUES (${id}::uuid, ${subject}, ${event.type}, ${JSON.stringify(envelope)}::jsonb, ${occurredAt})`;
  return envelope;
}
