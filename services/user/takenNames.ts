import type { Db, Tx } from "@services/shared/db";
import { Prisma } from "@services/shared/generated/prisma/client";
import { UserError } from "./errors";

// Whether a username or an email already belongs to an account (case-insensitive, as the unique
// indexes on lower(username) and lower(email) decide), in the registration's words: one check for
// registration, an administrator's profile edit, a new invited user and the client import.

export const USERNAME_TAKEN_MESSAGE = "Username already taken";
export const EMAIL_TAKEN_MESSAGE = "Email already registered";

/** Which of the two names are taken. */
export interface TakenNames {
  username: boolean;
  email: boolean;
}

/** Which of `username` and `email` already belong to an account (other than `exceptUserId`). */
export async function takenFields(
  db: Db | Tx,
  props: { username: string; email: string; exceptUserId?: number },
): Promise<TakenNames> {
  const client = "prisma" in db ? db.prisma : db;
  const except = props.exceptUserId ?? 0;
  const [row] = await client.$queryRaw<{ username: boolean | null; email: boolean | null }[]>`
    SELECT bool_or(lower(username) = lower(${props.username})) AS username,
           bool_or(lower(email) = lower(${props.email})) AS email
    FROM users
    WHERE id <> ${except}
      AND (lower(username) = lower(${props.username}) OR lower(email) = lower(${props.email}))`;
  return { username: row?.username === true, email: row?.email === true };
}

/**
 * The name a unique-index violation (two requests racing for one name, Prisma P2002) was about, or
 * null for any other error.
 */
export function takenByRace(err: unknown): TakenNames | null {
  if (!(err instanceof Prisma.PrismaClientKnownRequestError) || err.code !== "P2002") return null;
  const email = JSON.stringify(err.meta ?? {}).includes("email");
  return { username: !email, email };
}

/**
 * Rethrows a unique-index race (see {@link takenByRace}) on the email as EMAIL_TAKEN, on the
 * username as USERNAME_TAKEN, in the words the checks before the write use.
 * @throws UserError EMAIL_TAKEN, USERNAME_TAKEN; any other error as it is.
 */
export function rethrowTaken(err: unknown): never {
  const raced = takenByRace(err);
  if (raced?.email) throw new UserError("EMAIL_TAKEN", EMAIL_TAKEN_MESSAGE);
  if (raced?.username) throw new UserError("USERNAME_TAKEN", USERNAME_TAKEN_MESSAGE);
  throw err;
}
