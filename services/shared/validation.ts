import type { z } from "zod";
import type { Db } from "./db";
import { AppError } from "./errors";

/**
 * Parses input (a body, a GraphQL argument, a filter) with one of the shared zod schemas of
 * schema/validation; null and undefined are parsed as `{}`.
 * @throws AppError VALIDATION_FAILED: message the first issue's, details.errors field → messages.
 */
export function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.length > 0 ? issue.path.map(String).join(".") : "_";
    errors[field] = [...(errors[field] ?? []), issue.message];
  }
  throw new AppError("VALIDATION_FAILED", result.error.issues[0]?.message ?? "Invalid input", {
    details: { errors },
  });
}

/** What a settings update takes: the database, who changes it, the raw input, and from where. */
export interface SettingsUpdateProps<Actor> {
  db: Db;
  actor: Actor;
  /** the request body, parsed by the settings' schema */
  input: unknown;
  ip?: string | null;
}
