import { USER_TYPES } from "@schema/validation/user";
import {
  ACCESS_LEVELS,
  USER_STATUSES,
  type UserFilter,
  userFilterSchema,
} from "@schema/validation/userDirectory";
import type { Db } from "@services/shared/db";
import { parse } from "@services/shared/validation";
import { userFilterWhere } from "./filter";

// The directory's facet counts (issue 11, manage:users): for the current filter, how many users
// have each type, status, access level, verified and synced value. Every value is listed (0 when
// none), and each facet's counts add up to the total, because all are counted over the same rows.

export interface FacetCount<T extends string> {
  value: T;
  count: number;
}

export interface YesNoCount {
  yes: number;
  no: number;
}

export interface DirectoryFacets {
  total: number;
  userTypes: FacetCount<(typeof USER_TYPES)[number]>[];
  userStatuses: FacetCount<(typeof USER_STATUSES)[number]>[];
  accessLevels: FacetCount<(typeof ACCESS_LEVELS)[number]>[];
  emailVerified: YesNoCount;
  esrtSynced: YesNoCount;
}

interface GroupRow {
  userType: string;
  userStatus: string;
  accessLevel: string;
  emailVerified: boolean;
  esrtSynced: boolean;
  n: number;
}

function countsOf<T extends string>(values: readonly T[], rows: GroupRow[], pick: (r: GroupRow) => string) {
  return values.map((value) => ({
    value,
    count: rows.reduce((sum, r) => (pick(r) === value ? sum + r.n : sum), 0),
  }));
}

function yesNo(rows: GroupRow[], pick: (r: GroupRow) => boolean): YesNoCount {
  const yes = rows.reduce((sum, r) => (pick(r) ? sum + r.n : sum), 0);
  const total = rows.reduce((sum, r) => sum + r.n, 0);
  return { yes, no: total - yes };
}

/**
 * The facet counts for an already-checked filter: one pass over the matching rows grouped by the
 * five facet columns (at most 120 groups).
 */
export async function directoryFacets(db: Db, filter: UserFilter): Promise<DirectoryFacets> {
  const rows = await db.prisma.$queryRaw<GroupRow[]>`
    SELECT u."userType"::text AS "userType", u."userStatus"::text AS "userStatus",
           u."accessLevel"::text AS "accessLevel", u."emailVerified", u."esrtSynced", count(*)::int AS n
    FROM users u WHERE ${userFilterWhere(filter)}
    GROUP BY u."userType", u."userStatus", u."accessLevel", u."emailVerified", u."esrtSynced"`;
  return {
    total: rows.reduce((sum, r) => sum + r.n, 0),
    userTypes: countsOf(USER_TYPES, rows, (r) => r.userType),
    userStatuses: countsOf(USER_STATUSES, rows, (r) => r.userStatus),
    accessLevels: countsOf(ACCESS_LEVELS, rows, (r) => r.accessLevel),
    emailVerified: yesNo(rows, (r) => r.emailVerified),
    esrtSynced: yesNo(rows, (r) => r.esrtSynced),
  };
}

/**
 * The facet counts for the current filter.
 * @throws AppError VALIDATION_FAILED for a bad filter.
 */
export async function userDirectoryFacets(db: Db, input: { filter?: unknown }): Promise<DirectoryFacets> {
  return directoryFacets(db, parse(userFilterSchema, input.filter ?? {}));
}
