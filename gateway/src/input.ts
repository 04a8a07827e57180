import { idSchema } from "@schema/validation/primitives";
import { AppError } from "@services/shared/errors";
import { parse } from "@services/shared/validation";
import type { z } from "zod";

// The one place input is parsed, for GraphQL resolvers and REST shims alike: a shared zod schema
// (schema/validation) and a value; a failure is the one AppError VALIDATION_FAILED both surfaces
// answer (message: the first issue's; details.errors: field → messages).

/**
 * Parses `value` (a body, route parameters, GraphQL arguments) with a shared zod schema; null and
 * undefined parse as `{}`.
 * @throws AppError VALIDATION_FAILED: the first issue's message, details.errors field → messages.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  return parse(schema, value);
}

/**
 * Parses a GraphQL input object or argument set: GraphQL leaves absent optional fields as null,
 * the shared schemas expect them left out, so null fields are dropped first.
 * @throws AppError VALIDATION_FAILED as {@link parseInput}.
 */
export function parseArgs<S extends z.ZodType>(
  schema: S,
  args: Record<string, unknown> | null | undefined,
): z.output<S> {
  return parse(schema, withoutNulls(args));
}

/**
 * Parses with a schema whose failure answers one message (details.error), as POST /api/user/notes
 * has always answered (spec §5).
 * @throws AppError VALIDATION_FAILED with the first issue's message, details.error the same.
 */
export function parseSingleMessage<S extends z.ZodType>(
  schema: S,
  value: unknown,
  fallback: string,
): z.output<S> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const message = result.error.issues[0]?.message ?? fallback;
  throw new AppError("VALIDATION_FAILED", message, { details: { error: message } });
}

/**
 * An Int argument that names a row, checked like every id of the REST shims (the shared idSchema:
 * 1 to 2147483647). GraphQL's Int already stops at 2147483647; this refuses 0 and negatives.
 * @throws AppError VALIDATION_FAILED with the schema's message.
 */
export function parseId(value: number): number {
  return parse(idSchema, value);
}

/**
 * A route parameter naming a row (the shared idSchema); a path that cannot name one names nothing.
 * @throws AppError NOT_FOUND with `notFound` otherwise.
 */
export function parsePathId(value: unknown, notFound: string): number {
  const parsed = idSchema.safeParse(value);
  if (!parsed.success) throw new AppError("NOT_FOUND", notFound);
  return parsed.data;
}

/**
 * GraphQL leaves absent optional fields of an input as null; the shared schemas expect them left
 * out. Returns the input without its null and undefined fields ({} for no input).
 */
export function withoutNulls(input: Record<string, unknown> | null | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input ?? {}).filter(([, v]) => v !== null && v !== undefined));
}
