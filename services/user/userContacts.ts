import type { Db, Tx } from "@services/shared/db";
import type { Prisma, UserStatus, UserType } from "@services/shared/generated/prisma/client";

// The user facts other services may read, and the only way they read them (docs/DECISIONS.md, Who
// reads the users table): a user's contact details, type and status (one user, or a page's users in
// one query), users' display names (the audit view), and the active clients a reviewer may pick.
// The caller's transaction client may be passed so the read shares its snapshot; none of these lock
// a user row.

/** What another service may know of a user. */
export interface UserContact {
  id: number;
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  companyName: string | null;
  userType: UserType;
  userStatus: UserStatus;
}

const contactSelect = {
  id: true,
  username: true,
  email: true,
  firstName: true,
  lastName: true,
  companyName: true,
  userType: true,
  userStatus: true,
} as const;

/** A client as another service lists it (a document's owner, the report picker's choices). */
export type ClientSummary = Pick<
  UserContact,
  "id" | "username" | "firstName" | "lastName" | "email" | "companyName"
>;

/** A user's contact details, type and status, or null when there is no such user. */
export async function findUserContact(client: Tx | Db, userId: number): Promise<UserContact | null> {
  const q = "prisma" in client ? client.prisma : client;
  return q.user.findUnique({ where: { id: userId }, select: contactSelect });
}

/**
 * The contact details of every user of `userIds` that exists, by id, in one query whatever the
 * number of ids (duplicates are read once): for a list of another service's rows, never one read
 * per row. An id with no user is absent from the map.
 */
export async function findUserContacts(
  client: Tx | Db,
  userIds: Iterable<number>,
): Promise<Map<number, UserContact>> {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return new Map();
  const q = "prisma" in client ? client.prisma : client;
  const rows = await q.user.findMany({ where: { id: { in: ids } }, select: contactSelect });
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * The display name ("first last", trimmed of spaces; null when both are empty) of every user of
 * `userIds` that exists, by id, in one query: what the audit view shows beside an actor or target.
 */
export async function findUserNames(
  client: Tx | Db,
  userIds: Iterable<number>,
): Promise<Map<number, string | null>> {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return new Map();
  const q = "prisma" in client ? client.prisma : client;
  const rows = await q.$queryRaw<{ id: number; name: string | null }[]>`
    SELECT id, NULLIF(trim(concat_ws(' ', "firstName", "lastName")), '') AS name
    FROM users WHERE id = ANY(${ids}::int[])`;
  return new Map(rows.map((row) => [row.id, row.name]));
}

function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Active clients whose username, email, first or last name or company name holds every one of
 * `words` (case-insensitive), sorted by last name, first name, id; at most `first`.
 */
export async function searchActiveClients(props: {
  db: Db;
  words: readonly string[];
  first: number;
}): Promise<ClientSummary[]> {
  const where: Prisma.UserWhereInput = {
    userType: "client",
    userStatus: "active",
    AND: props.words.map((word) => {
      const contains = escapeLike(word);
      return {
        OR: (["username", "email", "firstName", "lastName", "companyName"] as const).map((field) => ({
          [field]: { contains, mode: "insensitive" as const },
        })),
      };
    }),
  };
  return props.db.prisma.user.findMany({
    where,
    select: { id: true, username: true, firstName: true, lastName: true, email: true, companyName: true },
    orderBy: [{ lastName: "asc" }, { firstName: "asc" }, { id: "asc" }],
    take: props.first,
  });
}

/**
 * Another service's rows, each with its user's contact under `key`, read in one query
 * ({@link findUserContacts}), in the rows' order. A row whose user is gone is left out: it is being
 * deleted with its user (the foreign keys cascade).
 */
export async function withUserContacts<R extends { userId: number }, K extends string>(
  client: Tx | Db,
  rows: readonly R[],
  key: K,
): Promise<Array<R & Record<K, UserContact>>> {
  const contacts = await findUserContacts(
    client,
    rows.map((row) => row.userId),
  );
  return rows.flatMap((row) => {
    const contact = contacts.get(row.userId);
    return contact ? [{ ...row, [key]: contact } as R & Record<K, UserContact>] : [];
  });
}
