import type { Db } from "@services/shared/db";

/**
 * Documents waiting for a decision (status pending), for the admin dashboard.
 * @throws Prisma errors.
 */
export async function countPendingDocuments(props: { db: Db }): Promise<number> {
  return props.db.prisma.document.count({ where: { status: "pending" } });
}
