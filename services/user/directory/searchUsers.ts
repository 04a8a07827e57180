import { ADMIN_PROFILE_FIELDS } from "@schema/validation/adminUser";
import {
  type UserFilter,
  type UserSort,
  userFilterSchema,
  userSortSchema,
} from "@schema/validation/userDirectory";
import { decodeCursor, encodeCursor } from "@services/shared/cursor";
import type { Db } from "@services/shared/db";
import { AppError } from "@services/shared/errors";
import { Prisma } from "@services/shared/generated/prisma/client";
import type {
  AccessLevel,
  SecurityLevel,
  UserStatus,
  UserType,
} from "@services/shared/generated/prisma/enums";
import { parse } from "@services/shared/validation";
import { z } from "zod";
import { userFilterWhere } from "./filter";

// The user directory (issue 11, manage:users; the gateway checks the permission): users matching a
// filter in keyset pages. The cursor names the last row's sort key and id, so the 1,000th page
// costs what the first does, and users created between two requests neither shift nor repeat rows.

/** A user as the directory lists it: the public fields only (never a password, hash or token). */
export interface DirectoryUser {
  id: number;
  uniqueId: string;
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  phone: string | null;
  companyName: string | null;
  userType: UserType;
  notes: string | null;
  createdAt: Date;
  lastLoginAt: Date | null;
  accessLevel: AccessLevel;
  esrtSynced: boolean;
  userStatus: UserStatus;
  emailVerified: boolean;
  securityQuestionsSet: boolean;
  securityLevel: SecurityLevel;
}

/** The public columns, in the order of {@link DirectoryUser} (also the export's columns). */
export const DIRECTORY_COLUMNS = [
  "id",
  "uniqueId",
  ...ADMIN_PROFILE_FIELDS,
  "userType",
  "notes",
  "createdAt",
  "lastLoginAt",
  "accessLevel",
  "esrtSynced",
  "userStatus",
  "emailVerified",
  "securityQuestionsSet",
  "securityLevel",
] as const satisfies readonly (keyof DirectoryUser)[];

const SELECT = Prisma.raw(DIRECTORY_COLUMNS.map((c) => `u."${c}"`).join(", "));

export interface DirectoryPage {
  nodes: DirectoryUser[];
  /** the cursor after the last node (null for an empty page) */
  endCursor: string | null;
  hasNextPage: boolean;
}

/** The largest page a caller may ask for. */
export const MAX_PAGE_SIZE = 200;
export const DEFAULT_PAGE_SIZE = 50;

export const directoryPageSchema = z.object({
  first: z
    .number()
    .int()
    .min(1, `first is 1 to ${MAX_PAGE_SIZE}`)
    .max(MAX_PAGE_SIZE, `first is 1 to ${MAX_PAGE_SIZE}`)
    .default(DEFAULT_PAGE_SIZE),
  after: z.string().max(500, "Invalid cursor").optional(),
});

const INVALID_CURSOR = "Invalid cursor: start again from the first page";

/** Where a page ends: the last row's sort key (by the sort it was made for) and id. */
interface Cursor {
  by: UserSort["by"];
  direction: UserSort["direction"];
  /** name: [search_normalize(lastName), search_normalize(firstName)]; createdAt: [ISO]; lastLoginAt: [ISO or null] */
  key: (string | null)[];
  id: number;
}

function cursorText(c: Cursor): string {
  return encodeCursor([c.by, c.direction, c.key, c.id]);
}

const cursorSchema = z.tuple([
  z.enum(["name", "createdAt", "lastLoginAt"]),
  z.enum(["asc", "desc"]),
  z.array(z.string().max(300).nullable()).min(1).max(2),
  z.number().int().min(1).max(2_147_483_647),
]);

/**
 * The cursor's position, which must have been made for the same sort.
 * @throws AppError VALIDATION_FAILED for anything that is not such a cursor.
 */
function cursorAfter(text: string, sort: UserSort): Cursor {
  const [by, direction, key, id] = decodeCursor(
    text,
    cursorSchema,
    () => new AppError("VALIDATION_FAILED", INVALID_CURSOR),
    ([by, direction, key]) =>
      by === sort.by &&
      direction === sort.direction &&
      (by === "name"
        ? key.length === 2 && key.every((k) => k !== null)
        : key.length === 1 &&
          (key[0] === null ? by === "lastLoginAt" : !Number.isNaN(Date.parse(key[0] as string)))),
  );
  return { by, direction, key, id };
}

function cursorOf(user: Row, sort: UserSort): Cursor {
  const key =
    sort.by === "name"
      ? (user.nameKey ?? [])
      : sort.by === "createdAt"
        ? [user.createdAt.toISOString()]
        : [user.lastLoginAt ? user.lastLoginAt.toISOString() : null];
  return { by: sort.by, direction: sort.direction, key, id: user.id };
}

/** A row with the name sort's key as the database computes it (the cursor must carry exactly that). */
type Row = DirectoryUser & { nameKey?: [string, string] };

/**
 * How a page is read when the filter has search text. "walk": the planner's choice, which walks the
 * sort's index and tests each user until the page is full (cheap when many users match, as the page
 * fills early). "matches": every matching user is read through the trigram index, then sorted (cheap
 * when few match). PostgreSQL's own choice between the two assumes the matches are spread evenly
 * along the sort's index, and it prices testing a row's text far below its cost: at a million users
 * it walked 25,000 rows (80 ms) for a text 2,000 users match, where reading those 2,000 takes 15 ms,
 * and for a name sorted by name (the matches all in one stretch of the alphabet) it walked 880,000.
 */
export type Reading = "walk" | "matches";

/** Reading a user through the sort's index and testing it, relative to reading one match. */
const WALK_ROW_COST = 0.4;
/** The trigram index's own work, in matches read. */
const MATCHES_FIXED_COST = 250;
/** Above this many estimated matches the name sort walks (its matches are read and sorted below it). */
const NAME_SORT_MATCHES_LIMIT = 50_000;
/** How long the estimate of the table's rows is kept. */
const TABLE_ROWS_TTL_MS = 60_000;

let tableRowsCache: { rows: number; at: number } | undefined;

/** The planner's estimate of the rows of users (pg_class.reltuples), kept for a minute. */
async function tableRows(db: Db): Promise<number> {
  if (tableRowsCache && Date.now() - tableRowsCache.at < TABLE_ROWS_TTL_MS) return tableRowsCache.rows;
  const [row] = await db.prisma.$queryRaw<{ rows: number }[]>`
    SELECT GREATEST(reltuples, 0)::float8 AS rows FROM pg_class WHERE oid = 'users'::regclass`;
  tableRowsCache = { rows: row?.rows ?? 0, at: Date.now() };
  return tableRowsCache.rows;
}

interface PlanNode {
  "Plan Rows"?: number;
  "Index Name"?: string;
  Plans?: PlanNode[];
}

/** The estimated rows of the plan's node that reads the trigram index, if any reads it. */
function trigramRows(node: PlanNode): number | undefined {
  if (node["Index Name"] === "users_search_trgm_idx") return node["Plan Rows"];
  for (const child of node.Plans ?? []) {
    const found = trigramRows(child);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Chooses how to read a page (see {@link Reading}) from the planner's estimates of the users the
 * text matches (through the trigram index) and of those the whole filter matches: the matches
 * when reading them costs less than walking to the page's last row would, the matches are spread
 * evenly; for the name sort, whose matches are often not (a name part's users share a stretch of the
 * alphabet), the matches whenever they are not too many.
 */
async function chooseReading(
  db: Db,
  filter: UserFilter,
  where: Prisma.Sql,
  sort: UserSort,
  limit: number,
): Promise<Reading> {
  if (!filter.q?.trim()) return "walk";
  const [explained] = await db.prisma.$queryRaw<{ "QUERY PLAN": unknown }[]>`
    EXPLAIN (FORMAT JSON) SELECT 1 FROM users u WHERE ${where}`;
  // json, or its text where a driver does not parse it
  const raw = explained?.["QUERY PLAN"];
  const parsed = (typeof raw === "string" ? JSON.parse(raw) : raw) as { Plan?: PlanNode }[] | undefined;
  const plan = parsed?.[0]?.Plan;
  const textRows = plan ? trigramRows(plan) : undefined;
  // the planner would not read the trigram index (a text too short or too common): walk
  if (!plan || textRows === undefined) return "walk";
  return readingFor({
    textRows,
    matching: plan["Plan Rows"] ?? 1,
    total: sort.by === "name" ? 0 : await tableRows(db),
    limit,
    byName: sort.by === "name",
  });
}

/**
 * The reading {@link chooseReading} takes for the planner's estimates: the users the text matches,
 * those the whole filter matches and the table's rows, for a page of `limit` rows.
 */
export function readingFor(estimate: {
  textRows: number;
  matching: number;
  total: number;
  limit: number;
  byName: boolean;
}): Reading {
  if (estimate.byName) return estimate.textRows <= NAME_SORT_MATCHES_LIMIT ? "matches" : "walk";
  const { total, limit } = estimate;
  const walked = Math.min(total, (limit * total) / Math.max(estimate.matching, 1));
  return estimate.textRows + MATCHES_FIXED_COST < walked * WALK_ROW_COST ? "matches" : "walk";
}

async function rows(
  db: Db,
  props: {
    where: Prisma.Sql;
    /** the order on users u */
    order: Prisma.Sql;
    limit: number;
    reading: Reading;
    /** the name sort: its keys come back with the rows (k1, k2), and `order` names them */
    byName?: boolean;
  },
): Promise<Row[]> {
  const { where, order, limit, byName = false } = props;
  const keys = byName ? Prisma.sql`, u."lastNameKey" AS k1, u."firstNameKey" AS k2` : Prisma.empty;
  // the matches: the subquery (kept whole by OFFSET 0) reads them all, then they are sorted
  const found =
    props.reading === "matches"
      ? await db.prisma.$queryRaw<(DirectoryUser & { k1?: string; k2?: string })[]>`
          SELECT * FROM (SELECT ${SELECT}${keys} FROM users u WHERE ${where} OFFSET 0) u
          ORDER BY ${order} LIMIT ${limit}`
      : await db.prisma.$queryRaw<(DirectoryUser & { k1?: string; k2?: string })[]>`
          SELECT ${SELECT}${keys} FROM users u WHERE ${where} ORDER BY ${order} LIMIT ${limit}`;
  return found.map(({ k1, k2, ...user }) =>
    k1 !== undefined && k2 !== undefined ? { ...user, nameKey: [k1, k2] } : user,
  );
}

/**
 * Up to `limit` users matching the filter, after the cursor, in the sort's order. Names compare
 * without case or accents (search_normalize of lastName, then firstName); users who never signed in come last in
 * both directions of the last-login sort; ties are broken by id in the sort's direction.
 */
async function pageRows(
  db: Db,
  filter: UserFilter,
  sort: UserSort,
  limit: number,
  after: Cursor | null,
  forced?: Reading,
): Promise<Row[]> {
  const where = userFilterWhere(filter);
  const reading = forced ?? (await chooseReading(db, filter, where, sort, limit));
  const dir = Prisma.raw(sort.direction === "asc" ? "ASC" : "DESC");
  const cmp = Prisma.raw(sort.direction === "asc" ? ">" : "<");
  if (sort.by === "name") {
    const keyset = after
      ? Prisma.sql` AND (u."lastNameKey", u."firstNameKey", u.id) ${cmp} (${after.key[0]}::text, ${after.key[1]}::text, ${after.id}::int)`
      : Prisma.empty;
    // the keys the rows come back with, so the order computes them once a row
    return rows(db, {
      where: Prisma.sql`${where}${keyset}`,
      order:
        reading === "matches"
          ? Prisma.sql`u.k1 ${dir}, u.k2 ${dir}, u.id ${dir}`
          : Prisma.sql`u."lastNameKey" ${dir}, u."firstNameKey" ${dir}, u.id ${dir}`,
      limit,
      reading,
      byName: true,
    });
  }
  if (sort.by === "createdAt") {
    const keyset = after
      ? Prisma.sql` AND (u."createdAt", u.id) ${cmp} (${after.key[0]}::timestamptz, ${after.id}::int)`
      : Prisma.empty;
    return rows(db, {
      where: Prisma.sql`${where}${keyset}`,
      order: Prisma.sql`u."createdAt" ${dir}, u.id ${dir}`,
      limit,
      reading,
    });
  }
  // lastLoginAt: the users who signed in (by the instant), then those who never did (by id)
  const found: Row[] = [];
  const inNullPart = after !== null && after.key[0] === null;
  if (!inNullPart) {
    const keyset = after
      ? Prisma.sql` AND (u."lastLoginAt", u.id) ${cmp} (${after.key[0]}::timestamptz, ${after.id}::int)`
      : Prisma.empty;
    found.push(
      ...(await rows(db, {
        where: Prisma.sql`${where} AND u."lastLoginAt" IS NOT NULL${keyset}`,
        order: Prisma.sql`u."lastLoginAt" ${dir}, u.id ${dir}`,
        limit,
        reading,
      })),
    );
  }
  if (found.length < limit) {
    const keyset = inNullPart ? Prisma.sql` AND u.id ${cmp} ${after?.id}::int` : Prisma.empty;
    found.push(
      ...(await rows(db, {
        where: Prisma.sql`${where} AND u."lastLoginAt" IS NULL${keyset}`,
        order: Prisma.sql`u.id ${dir}`,
        limit: limit - found.length,
        reading,
      })),
    );
  }
  return found;
}

/**
 * One page of users for already-checked input (the export reads its batches with it).
 * @throws AppError VALIDATION_FAILED for a cursor not made for this sort.
 */
export async function directoryPage(
  db: Db,
  props: {
    filter: UserFilter;
    sort: UserSort;
    first: number;
    after?: string | null;
    /** how to read the page (default: chosen from the planner's estimates); for tests */
    reading?: Reading;
  },
): Promise<DirectoryPage> {
  const after = props.after ? cursorAfter(props.after, props.sort) : null;
  const found = await pageRows(db, props.filter, props.sort, props.first + 1, after, props.reading);
  const page = found.slice(0, props.first);
  const last = page.at(-1);
  return {
    nodes: page.map(({ nameKey: _key, ...user }) => user),
    endCursor: last ? cursorText(cursorOf(last, props.sort)) : null,
    hasNextPage: found.length > props.first,
  };
}

/**
 * The directory's search: users matching the filter, in the sort's order, `first` (1 to 200,
 * default 50) after the cursor.
 * @throws AppError VALIDATION_FAILED for a bad filter, sort, page size or cursor.
 */
export async function searchUsers(
  db: Db,
  input: { filter?: unknown; sort?: unknown; first?: unknown; after?: unknown },
): Promise<DirectoryPage> {
  const filter = parse(userFilterSchema, input.filter ?? {});
  const sort = parse(userSortSchema, input.sort ?? {});
  const page = parse(directoryPageSchema, { first: input.first, after: input.after });
  return directoryPage(db, { filter, sort, first: page.first, after: page.after });
}
