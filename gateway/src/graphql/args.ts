import { idSchema } from "@schema/validation/primitives";
import { parse } from "../rest/handle";

/**
 * An Int argument that names a row, checked like every id of the REST shims (the shared idSchema:
 * 1 to 2147483647). GraphQL's Int already stops at 2147483647; this refuses 0 and negatives.
 * @throws AppError VALIDATION_FAILED with the schema's message.
 */
export function parseId(value: number): number {
  return parse(idSchema, value);
}

/**
 * GraphQL leaves absent optional fields of an input as null; the shared schemas expect them left
 * out. Returns the input without its null and undefined fields ({} for no input).
 */
export function withoutNulls(input: Record<string, unknown> | null | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input ?? {}).filter(([, v]) => v !== null && v !== undefined));
}
