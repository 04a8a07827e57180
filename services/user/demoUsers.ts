import { randomBytes } from "node:crypto";
import type { Db } from "@services/shared/db";
import type { UserType } from "@services/shared/generated/prisma/enums";
import { hashPassword } from "./passwords";
import { generateUniqueId } from "./uniqueId";

// Demo users for the testing tools (issue 12, outside production): five clients, each with a console
// note kept in its history as a client's own note would be, and one demo user of each other role a
// tester signs in as on the role switcher (issue 21: a prospect, a userAdmin and a mainAdmin). All
// are marked isDemo. No event is emitted, so no other service (email, Pro-app sync) keeps anything
// of theirs once they are removed.

const CLIENTS: readonly [string, string, string][] = [
  ["Avery", "Demo", "Northwind Receivables"],
  ["Blake", "Demo", "Contoso Collections"],
  ["Casey", "Demo", "Fabrikam Finance"],
  ["Devon", "Demo", "Tailspin Traders"],
  ["Emery", "Demo", "Woodgrove Supplies"],
];

/** The demo users of the roles besides client: one each, for the role switcher. */
const ROLE_USERS: readonly { userType: UserType; firstName: string; companyName: string | null }[] = [
  { userType: "prospect", firstName: "Parker", companyName: "Litware Logistics" },
  { userType: "userAdmin", firstName: "Riley", companyName: null },
  { userType: "mainAdmin", firstName: "Morgan", companyName: null },
];

/** The roles the role switcher offers, in its order. */
export const DEMO_ROLES = [
  "prospect",
  "client",
  "userAdmin",
  "mainAdmin",
] as const satisfies readonly UserType[];

const NOTE = "Demo note: please call me about the open invoices before Friday.";

/** A demo user as the testing tools report it. */
export interface DemoUser {
  id: number;
  name: string;
  email: string;
  userType: UserType;
}

/** What {@link createDemoUsers} made: the clients (who get appointments and documents) and the rest. */
export interface DemoUsers {
  clients: DemoUser[];
  others: DemoUser[];
}

/**
 * Creates the demo users in one transaction: five demo clients (each with a note and its history
 * row) and a demo prospect, userAdmin and mainAdmin. All verified and active, with a password nobody knows (a hash of random bytes: they cannot sign in
 * with a password; the role switcher signs a mainAdmin in as one of them).
 * @throws Prisma errors (a unique collision of the random names is retried by the caller).
 */
export async function createDemoUsers(props: { db: Db }): Promise<DemoUsers> {
  const password = await hashPassword(randomBytes(32).toString("base64url"));
  const tag = randomBytes(3).toString("hex");
  return props.db.prisma.$transaction(async (tx) => {
    const made: DemoUsers = { clients: [], others: [] };
    const create = async (userType: UserType, firstName: string, companyName: string | null) => {
      const handle = `demo_${firstName.toLowerCase()}_${tag}`;
      const isClient = userType === "client";
      const isAdmin = userType === "mainAdmin" || userType === "userAdmin";
      const user = await tx.user.create({
        data: {
          uniqueId: generateUniqueId(),
          username: handle,
          email: `${handle}@demo.invalid`,
          password,
          firstName,
          lastName: "Demo",
          companyName,
          userType,
          emailVerified: true,
          notes: isClient ? NOTE : null,
          ...(isAdmin ? { accessLevel: "full" as const } : {}),
          isDemo: true,
        },
      });
      if (isClient) {
        await tx.noteHistory.create({
          data: { userId: user.id, notes: NOTE, wordCount: NOTE.split(/\s+/).length },
        });
      }
      return { id: user.id, name: `${firstName} Demo`, email: user.email, userType };
    };
    for (const [firstName, , companyName] of CLIENTS) {
      made.clients.push(await create("client", firstName, companyName));
    }
    for (const role of ROLE_USERS)
      made.others.push(await create(role.userType, role.firstName, role.companyName));
    return made;
  });
}

/** The ids of every demo user. @throws the database driver's error. */
export async function demoUserIds(db: Db): Promise<number[]> {
  const rows = await db.prisma.user.findMany({ where: { isDemo: true }, select: { id: true } });
  return rows.map((r) => r.id);
}

/** How many demo users there are, and how many of them are clients. @throws the driver's error. */
export async function demoUserCounts(db: Db): Promise<{ users: number; clients: number }> {
  const rows = await db.prisma.user.groupBy({ by: ["userType"], where: { isDemo: true }, _count: true });
  const users = rows.reduce((sum, row) => sum + row._count, 0);
  return { users, clients: rows.find((row) => row.userType === "client")?._count ?? 0 };
}

/**
 * Deletes the demo users among `ids` (with their notes' history, security questions, tokens and
 * second factors, which belong to the user): a real user's id in `ids` is never touched.
 * @throws the database driver's error.
 */
export async function removeDemoUsers(props: { db: Db; ids: number[] }): Promise<number> {
  if (props.ids.length === 0) return 0;
  const { count } = await props.db.prisma.user.deleteMany({ where: { id: { in: props.ids }, isDemo: true } });
  return count;
}

/** A demo user the role switcher offers. */
export interface DemoRoleUser {
  id: number;
  userType: UserType;
  firstName: string;
  lastName: string;
  email: string;
}

/**
 * One active demo user of each role of {@link DEMO_ROLES} (the oldest), in that order; a role with
 * none is left out. @throws the database driver's error.
 */
export async function demoRoleUsers(db: Db): Promise<DemoRoleUser[]> {
  const rows = await db.prisma.user.findMany({
    where: { isDemo: true, userStatus: "active", userType: { in: [...DEMO_ROLES] } },
    select: { id: true, userType: true, firstName: true, lastName: true, email: true },
    orderBy: { id: "asc" },
  });
  return DEMO_ROLES.flatMap((role) => rows.find((row) => row.userType === role) ?? []);
}
