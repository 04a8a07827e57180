import { randomBytes } from "node:crypto";
import type { Db } from "@services/shared/db";
import { hashPassword } from "./passwords";
import { generateUniqueId } from "./uniqueId";

// Demo clients for the testing tools (issue 12, outside production): users marked isDemo, each with
// a console note kept in its history, as a client's own note would be. No event is emitted, so no
// other service (email, Pro-app sync) keeps anything of theirs once they are removed.

const NAMES: readonly [string, string, string][] = [
  ["Avery", "Demo", "Northwind Receivables"],
  ["Blake", "Demo", "Contoso Collections"],
  ["Casey", "Demo", "Fabrikam Finance"],
  ["Devon", "Demo", "Tailspin Traders"],
  ["Emery", "Demo", "Woodgrove Supplies"],
];

const NOTE = "Demo note: please call me about the open invoices before Friday.";

/** A demo client as the testing tools report it. */
export interface DemoClient {
  id: number;
  name: string;
  email: string;
}

/**
 * Creates `count` demo clients (at most five), verified and active, with a password nobody knows
 * (a hash of random bytes: they cannot sign in), a note and its history row, in one transaction.
 * @throws Prisma errors (a unique collision of the random names is retried by the caller).
 */
export async function createDemoClients(props: { db: Db; count?: number }): Promise<DemoClient[]> {
  const count = Math.min(props.count ?? NAMES.length, NAMES.length);
  const password = await hashPassword(randomBytes(32).toString("base64url"));
  const tag = randomBytes(3).toString("hex");
  return props.db.prisma.$transaction(async (tx) => {
    const made: DemoClient[] = [];
    for (const [firstName, lastName, companyName] of NAMES.slice(0, count)) {
      const handle = `demo_${firstName.toLowerCase()}_${tag}`;
      const user = await tx.user.create({
        data: {
          uniqueId: generateUniqueId(),
          username: handle,
          email: `${handle}@demo.invalid`,
          password,
          firstName,
          lastName,
          companyName,
          userType: "client",
          emailVerified: true,
          notes: NOTE,
          isDemo: true,
        },
      });
      await tx.noteHistory.create({
        data: { userId: user.id, notes: NOTE, wordCount: NOTE.split(/\s+/).length },
      });
      made.push({ id: user.id, name: `${firstName} ${lastName}`, email: user.email });
    }
    return made;
  });
}

/** The ids of every demo client. @throws the database driver's error. */
export async function demoClientIds(db: Db): Promise<number[]> {
  const rows = await db.prisma.user.findMany({ where: { isDemo: true }, select: { id: true } });
  return rows.map((r) => r.id);
}

/**
 * Deletes the demo clients among `ids` (with their notes' history, security questions and tokens,
 * which belong to the user): a real user's id in `ids` is never touched.
 * @throws the database driver's error.
 */
export async function removeDemoClients(props: { db: Db; ids: number[] }): Promise<number> {
  if (props.ids.length === 0) return 0;
  const { count } = await props.db.prisma.user.deleteMany({ where: { id: { in: props.ids }, isDemo: true } });
  return count;
}
