import type { UserFilter } from "@schema/validation/userDirectory";
import { Prisma } from "@services/shared/generated/prisma/client";

/**
 * One user's searchable text: the column the trigger users_search_text keeps (migration
 * 20261127040000_user_search_column) and the GIN index users_search_trgm_idx covers.
 */
export const USER_SEARCH_TEXT = Prisma.sql`u."searchText"`;

/**
 * The SQL condition on `users` (aliased `u`) that a {@link UserFilter} stands for; `TRUE` for an
 * empty filter. Shared by the search, the facet counts, the export and the bulk changes, so all of
 * them mean the same users by the same filter.
 */
export function userFilterWhere(filter: UserFilter): Prisma.Sql {
  const parts: Prisma.Sql[] = [];
  const q = filter.q?.trim();
  if (q) {
    // parts of words, case- and accent-insensitive: the users_search_trgm_idx expression (pg_trgm)
    const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    parts.push(Prisma.sql`${USER_SEARCH_TEXT} LIKE search_normalize(${pattern}::text)`);
  }
  if (filter.userTypes?.length) {
    parts.push(
      Prisma.sql`u."userType" IN (${Prisma.join(filter.userTypes.map((v) => Prisma.sql`${v}::"UserType"`))})`,
    );
  }
  if (filter.userStatuses?.length) {
    parts.push(
      Prisma.sql`u."userStatus" IN (${Prisma.join(filter.userStatuses.map((v) => Prisma.sql`${v}::"UserStatus"`))})`,
    );
  }
  if (filter.accessLevels?.length) {
    parts.push(
      Prisma.sql`u."accessLevel" IN (${Prisma.join(filter.accessLevels.map((v) => Prisma.sql`${v}::"AccessLevel"`))})`,
    );
  }
  if (filter.emailVerified !== undefined) parts.push(Prisma.sql`u."emailVerified" = ${filter.emailVerified}`);
  if (filter.esrtSynced !== undefined) parts.push(Prisma.sql`u."esrtSynced" = ${filter.esrtSynced}`);
  if (filter.createdFrom) parts.push(Prisma.sql`u."createdAt" >= ${filter.createdFrom}`);
  if (filter.createdTo) parts.push(Prisma.sql`u."createdAt" <= ${filter.createdTo}`);
  if (filter.lastLoginFrom) parts.push(Prisma.sql`u."lastLoginAt" >= ${filter.lastLoginFrom}`);
  if (filter.lastLoginTo) parts.push(Prisma.sql`u."lastLoginAt" <= ${filter.lastLoginTo}`);
  return parts.length ? Prisma.join(parts, " AND ") : Prisma.sql`TRUE`;
}
