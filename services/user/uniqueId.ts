import { randomBytes } from "node:crypto";

// Crockford's base32: no I, L, O or U, so an id read aloud or typed from a QR label is unambiguous.
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/**
 * A new user's public id, "ESRT-" and 8 random base32 characters (40 bits), used in the Pro app's
 * link `{proAppUrl}/user/{uniqueId}`. The users table's unique index catches the rare collision.
 */
export function generateUniqueId(): string {
  const bytes = randomBytes(8);
  let id = "";
  for (const byte of bytes) id += ALPHABET[byte & 31];
  return `ESRT-${id}`;
}
