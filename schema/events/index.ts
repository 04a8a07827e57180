import { z } from "zod";
import { appointmentEvents } from "./appointment";
import type { EventDefinition } from "./define";
import { diagnosticsEvents } from "./diagnostics";
import { documentEvents } from "./document";
import { type Envelope, type EnvelopeFields, envelopeSchema } from "./envelope";
import { esrtEvents } from "./esrt";
import { userEvents } from "./user";

export * from "./appointment";
export type { EventDefinition } from "./define";
export * from "./diagnostics";
export * from "./document";
export {
  type Actor,
  actorSchema,
  deploymentIdSchema,
  type Envelope,
  envelopeSchema,
  newEventId,
} from "./envelope";
export * from "./esrt";
export * from "./user";

const definitions = [
  ...userEvents,
  ...appointmentEvents,
  ...documentEvents,
  ...esrtEvents,
  ...diagnosticsEvents,
] as const;

type Definition = (typeof definitions)[number];

/** Every domain event of the portal, discriminated by `type` (`<aggregate>.<verb>`). */
export type DomainEvent = Definition extends infer D
  ? D extends EventDefinition<infer T, infer V, infer S>
    ? { type: T; version: V; payload: z.infer<S> }
    : never
  : never;

export type EventType = DomainEvent["type"];

/** The event of one type. */
export type EventOf<T extends EventType> = Extract<DomainEvent, { type: T }>;

/** The payload of one event type. */
export type PayloadOf<T extends EventType> = EventOf<T>["payload"];

/** The envelope of one event type, as `emit` returns it. */
export type EnvelopeOf<T extends EventType> = EnvelopeFields<T, EventOf<T>["version"], PayloadOf<T>>;

/** The contract (version and payload schema) of every event type. */
export const eventSchemas = Object.fromEntries(definitions.map((d) => [d.type, d])) as {
  [K in EventType]: Extract<Definition, { type: K }>;
};

/** Every event type, in declaration order. */
export const eventTypes: readonly EventType[] = definitions.map((d) => d.type);

/** Whether a string names a known event type. */
export function isEventType(value: string): value is EventType {
  return Object.hasOwn(eventSchemas, value);
}

/** The NATS subject of an event type: `${prefix}.${aggregate}.${verb}`, e.g. "portal.user.registered". */
export function subjectFor(prefix: string, type: EventType): string {
  return `${prefix}.${type}`;
}

/** Raised when an envelope or payload does not match the contract of its event type. */
export class InvalidEventError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InvalidEventError";
  }
}

function describe(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
}

/** Each type's payload schema refusing unknown fields, made once (a zod schema compiles on first use). */
const strictPayloads = new Map<string, z.ZodObject>();

/**
 * Checks an event to be emitted against its schema; unknown payload fields are refused, so nothing
 * unplanned (a password, a hash) slips into the outbox.
 * @throws InvalidEventError for an unknown type, another version or a payload that does not match.
 */
export function validateEvent(event: { type: string; version: number; payload: unknown }): void {
  if (!isEventType(event.type)) throw new InvalidEventError(`unknown event type "${event.type}"`);
  const def: EventDefinition<string, number, z.ZodObject> = eventSchemas[event.type];
  if (event.version !== def.version) {
    throw new InvalidEventError(`${event.type}: version ${event.version} is not ${def.version}`);
  }
  let strict = strictPayloads.get(event.type);
  if (!strict) {
    strict = def.payload.strict();
    strictPayloads.set(event.type, strict);
  }
  const result = strict.safeParse(event.payload);
  if (!result.success) throw new InvalidEventError(`${event.type}: ${describe(result.error)}`);
}

/**
 * Reads an envelope received from the bus or the outbox and checks its payload against its type.
 * Fields a newer publisher added to the payload are dropped.
 * @throws InvalidEventError when it is not a valid envelope of a known event type and version.
 */
export function parseEnvelope(raw: unknown): Envelope<DomainEvent> {
  const base = envelopeSchema.safeParse(raw);
  if (!base.success) throw new InvalidEventError(`invalid envelope: ${describe(base.error)}`);
  const env = base.data;
  if (!isEventType(env.type)) throw new InvalidEventError(`unknown event type "${env.type}"`);
  const def: EventDefinition<string, number, z.ZodObject> = eventSchemas[env.type];
  if (env.version !== def.version) {
    throw new InvalidEventError(`${env.type}: version ${env.version} is not understood`);
  }
  const payload = def.payload.safeParse(env.payload);
  if (!payload.success) throw new InvalidEventError(`${env.type}: ${describe(payload.error)}`);
  return { ...env, type: env.type, payload: payload.data } as Envelope<DomainEvent>;
}
