import { MAX_DB_ID } from "@schema/validation/primitives";
import { z } from "zod";

// The one keyset cursor of the portal's Relay lists: an opaque base64url of a JSON array that holds
// the list's tag or sort, the row's stable sort key and its id. decodeCursor refuses anything else
// (not base64url JSON, the wrong shape, another list's or another sort's cursor) with the error the
// list gives for a bad cursor.

/** Longest cursor text read (a cursor is made by encodeCursor and stays well under this). */
const MAX_CURSOR_LENGTH = 2000;

/** One part of a cursor's position. */
export type CursorPart = string | number | null | readonly (string | null)[];

/** The opaque cursor of a position (the list's tag or sort first, the row's id last). */
export function encodeCursor(parts: readonly CursorPart[]): string {
  return Buffer.from(JSON.stringify(parts)).toString("base64url");
}

/**
 * The position in `text`, checked by `schema` and, when given, `accept` (e.g. the cursor's sort is
 * the list's).
 * @throws the error `invalid` makes for anything that is not such a cursor.
 */
export function decodeCursor<T>(
  text: string,
  schema: z.ZodType<T>,
  invalid: () => Error,
  accept: (position: T) => boolean = () => true,
): T {
  let raw: unknown = null;
  if (text.length <= MAX_CURSOR_LENGTH && /^[A-Za-z0-9_-]*$/.test(text)) {
    try {
      raw = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
    } catch {
      raw = null;
    }
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success || !accept(parsed.data)) throw invalid();
  return parsed.data;
}

/** A cursor over a list ordered by id alone: its tag and the last row's id. */
export interface IdCursor {
  encode(id: number): string;
  /** @throws the list's error for anything that is not a cursor of this list */
  decode(text: string): number;
}

/**
 * The cursor of a list ordered by id (or another integer key) alone, tagged so that another list's
 * cursor is refused; `min` is the smallest key (default 1).
 */
export function idCursor(tag: string, invalid: () => Error, min = 1): IdCursor {
  const schema = z.tuple([z.literal(tag), z.number().int().min(min).max(MAX_DB_ID)]);
  return {
    encode: (id) => encodeCursor([tag, id]),
    decode: (text) => decodeCursor(text, schema, invalid)[1],
  };
}
