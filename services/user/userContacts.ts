import type { Db, Tx } from "@services/shared/db";
import type { Prisma, UserStatus, UserType } from "@services/shared/generated/prisma/client";

// The user facts other services may read, and the only way they read them (docs/DECISIONS.md, Who
// reads the users table): a user's contact details, type and status, and the active clients a
// reviewer may pick. The caller's transaction client may be passed so the read shares its snapshot;
// none of these lock a user row.

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
