import { z } from "zod";

/** The contract of one event type at one version: its name, version and payload schema. */
export interface EventDefinition<T extends string, V extends number, S extends z.ZodObject> {
  type: T;
  version: V;
  payload: S;
  /** the whole event `{ type, version, payload }` */
  schema: z.ZodObject<{ type: z.ZodLiteral<T>; version: z.ZodLiteral<V>; payload: S }>;
}

/** Declares an event type `<aggregate>.<verb>` with its version and payload schema. */
export function defineEvent<T extends `${string}.${string}`, V extends number, S extends z.ZodObject>(
  type: T,
  version: V,
  payload: S,
): EventDefinition<T, V, S> {
  return {
    type,
    version,
    payload,
    schema: z.object({ type: z.literal(type), version: z.literal(version), payload }),
  };
}

/** Fields shared by the payloads: ids and ISO timestamps. */
export const id = z.number().int().positive();
export const isoDate = z.iso.datetime({ offset: true });
/** A one-time token sealed by services/shared/sealed.ts; only the email service unseals it. */
export const sealedToken = z.string().regex(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
