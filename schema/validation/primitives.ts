import { z } from "zod";

// The building blocks of every input schema (docs/DECISIONS.md, Input): text that PostgreSQL can
// store, ids in the range of its integer columns, instants in the years its timestamps hold. Each
// input schema of schema/validation uses them for every free-text, id and filter-date field, so a
// handler never sees a value the database would refuse.

/** The largest id PostgreSQL's `integer` (int4) holds: the type of every id column. */
export const MAX_DB_ID = 2_147_483_647;

export const UNSAFE_TEXT_MESSAGE = "Text cannot contain NUL characters or unpaired surrogates";
export const ID_MESSAGE = `Ids are whole numbers from 1 to ${MAX_DB_ID}`;

// A high surrogate not followed by a low one, or a low surrogate not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Whether `value` holds a character PostgreSQL refuses: NUL (text columns, SQLSTATE 22021) or an
 * unpaired UTF-16 surrogate (JSON columns, 22P02; text columns would silently store U+FFFD).
 */
export function hasUnsafeCharacters(value: string): boolean {
  return value.includes("\u0000") || LONE_SURROGATE.test(value);
}

/**
 * A string the database can store: no NUL, no unpaired surrogate. Use it for every text field of an
 * input schema and chain the field's own rules on it (`text().trim().min(1, "...")`); `params` are
 * z.string()'s (the message for a value that is not a string).
 */
export function text(params?: Parameters<typeof z.string>[0]) {
  return z.string(params).refine((v) => !hasUnsafeCharacters(v), UNSAFE_TEXT_MESSAGE);
}

/**
 * An id of a database row: a whole number from 1 to 2147483647, given as a number (JSON bodies,
 * GraphQL) or as a string of digits (route and query parameters). Anything else, `true`, `"1e3"`,
 * `" 7"` or `2147483648` included, fails with `message`.
 */
export function id(message: string = ID_MESSAGE) {
  return z
    .union(
      [
        z.number(),
        z
          .string()
          .regex(/^\d{1,10}$/)
          .transform(Number),
      ],
      { error: message },
    )
    .pipe(z.number().int(message).min(1, message).max(MAX_DB_ID, message));
}

/** An id with the generic message ({@link id}). */
export const idSchema = id();

/** The first and last instants {@link instant} takes: years 1 to 9999 (UTC). */
const FIRST_INSTANT = new Date("0001-01-01T00:00:00.000Z");
const LAST_INSTANT = new Date("9999-12-31T23:59:59.999Z");

/** Whether `date` lies in the years 1 to 9999 (UTC), which PostgreSQL's timestamps hold. */
export function inInstantRange(date: Date): boolean {
  const t = date.getTime();
  return t >= FIRST_INSTANT.getTime() && t <= LAST_INSTANT.getTime();
}

/**
 * An instant a filter names ("2030-01-07", "2030-01-07T17:00:00Z", a Date from GraphQL), as a Date,
 * in the years 1 to 9999: PostgreSQL has no year 0 and refuses "0000-01-01" (SQLSTATE 22008), which
 * JavaScript reads as a date. Anything else fails with `message`.
 */
export function instant(message = "Please enter a valid date") {
  return z.coerce
    .date({ error: message })
    .min(FIRST_INSTANT, { error: message })
    .max(LAST_INSTANT, { error: message });
}
