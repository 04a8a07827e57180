import { createDemoAppointments, removeDemoAppointments } from "@services/appointment";
import { createDemoDocuments, removeDemoDocuments } from "@services/document";
import { audit } from "@services/shared/audit";
import { config } from "@services/shared/config";
import type { Db } from "@services/shared/db";
import { AppError } from "@services/shared/errors";
import { createDemoUsers, demoUserCounts, demoUserIds, removeDemoUsers } from "@services/user";

// Demo data for the testing tools (issue 12): a handful of clients with appointments, documents and
// notes, and one demo user of each other role for the role switcher (issue 21), made and removed
// through each owning service's own functions (no service writes another's tables), and refused in
// production on the server.

export const DEMO_PRODUCTION_MESSAGE = "Demo data is not available in production";
export const DEMO_EXISTS_MESSAGE = "Demo data already exists: remove it first";

/** What demo data there is, and whether this deployment may have any. */
export interface DemoDataStatus {
  /** false in production */
  available: boolean;
  /** every demo user, whatever the role */
  users: number;
  clients: number;
}

/** What generating or removing made or removed. */
export interface DemoDataCounts {
  /** every demo user: the clients and one of each other role */
  users: number;
  clients: number;
  appointments: number;
  documents: number;
}

function refuseInProduction(): void {
  if (config().NODE_ENV === "production") throw new AppError("FORBIDDEN", DEMO_PRODUCTION_MESSAGE);
}

/** Whether demo data may be made here and how many demo users exist. @throws the driver's error. */
export async function demoDataStatus(db: Db): Promise<DemoDataStatus> {
  const available = config().NODE_ENV !== "production";
  return { available, ...(available ? await demoUserCounts(db) : { users: 0, clients: 0 }) };
}

/**
 * Makes five demo clients, each with a note, an upcoming appointment and two documents, and a demo
 * prospect, userAdmin and mainAdmin (all marked, unable to sign in with a password); audited.
 * @throws AppError FORBIDDEN in production, CONFLICT while demo data exists; what one step made
 * before a later one failed is removed again before the error passes.
 */
export async function generateDemoData(props: { db: Db; actorId: number }): Promise<DemoDataCounts> {
  refuseInProduction();
  const { db } = props;
  if ((await demoUserIds(db)).length > 0) throw new AppError("CONFLICT", DEMO_EXISTS_MESSAGE);
  const { clients, others } = await createDemoUsers({ db });
  const ids = [...clients, ...others].map((u) => u.id);
  try {
    const appointments = await createDemoAppointments({ db, userIds: clients.map((c) => c.id) });
    const documents = await createDemoDocuments({ db, clients });
    const counts = { users: ids.length, clients: clients.length, appointments, documents };
    await audit(db.prisma, {
      action: "diagnostics.demo_data_generated",
      actorId: props.actorId,
      targetType: "demo_data",
      before: null,
      after: { ...counts, userIds: ids },
    });
    return counts;
  } catch (err) {
    await removeAll(db, ids).catch(() => undefined);
    throw err;
  }
}

async function removeAll(db: Db, ids: number[]): Promise<DemoDataCounts> {
  // counted before they go
  const { clients } = await demoUserCounts(db);
  const appointments = await removeDemoAppointments({ db, userIds: ids });
  const documents = await removeDemoDocuments({ db, userIds: ids });
  const users = await removeDemoUsers({ db, ids });
  return { users, clients, appointments, documents };
}

/**
 * Removes every demo user with their appointments, documents (and files) and notes, and nothing
 * else; audited (also when there was nothing to remove).
 * @throws AppError FORBIDDEN in production.
 */
export async function removeDemoData(props: { db: Db; actorId: number }): Promise<DemoDataCounts> {
  refuseInProduction();
  const ids = await demoUserIds(props.db);
  const counts = await removeAll(props.db, ids);
  await audit(props.db.prisma, {
    action: "diagnostics.demo_data_removed",
    actorId: props.actorId,
    targetType: "demo_data",
    before: { ...counts, userIds: ids },
    after: null,
  });
  return counts;
}
