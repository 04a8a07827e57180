import type { UserFilter } from "../../../schema/validation/userDirectory";
import { Prisma } from "../../shared/generated/prisma/client";

/**
 * The SQL condition on `users` (aliased `u`) that a {@link UserFilter} stands for; `TRUE` for an
 * empty filter. Shared by the search, the facet counts, the export and the bulk changes, so all of
 * them mean the same users by the same filter.
 */
export function userFilterWhere(filter: UserFilter): Prisma.Sql {
  const parts: Prisma.Sql[] = [];
  const q = filter.q?.trim();
  if (q) {
    // parts of words, case-insensitive: ILIKE on the pg_trgm-indexed columns (issue 11)
    const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    parts.push(Prisma.sql`(
      u."username" ILIKE ${pattern} OR u."email" ILIKE ${pattern} OR u."firstName" ILIKE ${pattern}
      OR u."lastName" ILIKE ${pattern} OR u."companyName" ILIKE ${pattern} OR u."phone" ILIKE ${pattern}
      OR u."uniqueId" ILIKE ${pattern})`);
  }
  if (filter.userTypes?.length) {
    parts.push(Prisma.sql`u."userType"::text IN (${Prisma.join(filter.userTypes)})`);
  }
  if (filter.userStatuses?.length) {
    parts.push(Prisma.sql`u."userStatus"::text IN (${Prisma.join(filter.userStatuses)})`);
  }
  if (filter.accessLevels?.length) {
    parts.push(Prisma.sql`u."accessLevel"::text IN (${Prisma.join(filter.accessLevels)})`);
  }
  if (filter.emailVerified !== undefined) parts.push(Prisma.sql`u."emailVerified" = ${filter.emailVerified}`);
  if (filter.esrtSynced !== undefined) parts.push(Prisma.sql`u."esrtSynced" = ${filter.esrtSynced}`);
  if (filter.createdFrom) parts.push(Prisma.sql`u."createdAt" >= ${filter.createdFrom}`);
  if (filter.createdTo) parts.push(Prisma.sql`u."createdAt" <= ${filter.createdTo}`);
  if (filter.lastLoginFrom) parts.push(Prisma.sql`u."lastLoginAt" >= ${filter.lastLoginFrom}`);
  if (filter.lastLoginTo) parts.push(Prisma.sql`u."lastLoginAt" <= ${filter.lastLoginTo}`);
  return parts.length ? Prisma.join(parts, " AND ") : Prisma.sql`TRUE`;
}
