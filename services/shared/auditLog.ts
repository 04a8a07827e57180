import { type AuditFilter, auditFilterSchema, auditPageSchema } from "@schema/validation/audit";
import { MAX_DB_ID } from "@schema/validation/primitives";
import { z } from "zod";
import { decodeCursor, encodeCursor } from "./cursor";
import type { Db } from "./db";
import { AppError } from "./errors";
import { Prisma } from "./generated/prisma/client";

// Reading the audit log (issue 11): the audit view's pages, its CSV export and the dashboard's recent
// activity. Newest first, in keyset pages over (createdAt, id), so a page never repeats or skips an
// entry while new ones are written. Actor and target names are for display only and come from the
// user service, which owns the users table: the caller passes its face's findUserNames as
// `userNames` (services/shared sits below every service and imports none), read once per page.

/** One audit entry as the admin reads it. */
export interface AuditEntryView {
  id: number;
  createdAt: Date;
  action: string;
  actorId: number | null;
  actorName: string | null;
  targetType: string | null;
  targetId: string | null;
  /** the target user's name, when the target is a user */
  targetName: string | null;
  ip: string | null;
  requestId: string | null;
  before: unknown;
  after: unknown;
  metadata: unknown;
}

/**
 * The display names of users by id, each null when the user has none; an id with no user is absent.
 * The user service's findUserNames (`(ids) => findUserNames(db, ids)`).
 */
export type UserNames = (userIds: readonly number[]) => Promise<ReadonlyMap<number, string | null>>;

export interface AuditPage {
  nodes: AuditEntryView[];
  endCursor: string | null;
  hasNextPage: boolean;
}

/**
 * Areas of the audit log that need a permission beyond being an admin: an admin without it does not
 * read their entries (a userAdmin does not see storage, security or email configuration changes).
 */
export const AUDIT_AREAS: readonly { prefix: string; permission: string }[] = [
  { prefix: "storage.", permission: "manage:config" },
  { prefix: "security.", permission: "manage:config" },
  { prefix: "branding.", permission: "manage:config" },
  { prefix: "email.", permission: "manageEmails" },
];

/** Action prefixes hidden from a reader holding `permissions`. */
export function hiddenAuditPrefixes(permissions: readonly string[]): string[] {
  return AUDIT_AREAS.filter((a) => !permissions.includes(a.permission)).map((a) => a.prefix);
}

const likePrefix = (prefix: string) => `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The SQL condition on `audit_logs a` for a filter and the reader's hidden areas. */
function auditWhere(filter: AuditFilter, hidden: readonly string[]): Prisma.Sql {
  const parts: Prisma.Sql[] = [];
  if (filter.action) parts.push(Prisma.sql`a.action = ${filter.action}`);
  if (filter.actionPrefix) parts.push(Prisma.sql`a.action LIKE ${likePrefix(filter.actionPrefix)}`);
  if (filter.actorId) parts.push(Prisma.sql`a."actorId" = ${filter.actorId}`);
  if (filter.targetUserId) {
    parts.push(Prisma.sql`a."targetType" = 'user' AND a."targetId" = ${String(filter.targetUserId)}`);
  }
  if (filter.from) parts.push(Prisma.sql`a."createdAt" >= ${filter.from}`);
  if (filter.to) parts.push(Prisma.sql`a."createdAt" < ${filter.to}`);
  const q = filter.q?.trim();
  if (q) parts.push(Prisma.sql`a.action ILIKE ${`%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`);
  for (const prefix of hidden) parts.push(Prisma.sql`a.action NOT LIKE ${likePrefix(prefix)}`);
  return parts.length ? Prisma.join(parts, " AND ") : Prisma.sql`TRUE`;
}

interface Cursor {
  createdAt: Date;
  id: number;
}

const cursorSchema = z.tuple([
  z.literal("a"),
  z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
  z.number().int().min(1).max(MAX_DB_ID),
]);

const cursorOf = (e: { createdAt: Date; id: number }) => encodeCursor(["a", e.createdAt.toISOString(), e.id]);

function parseCursor(cursor: string): Cursor {
  const [, at, id] = decodeCursor(
    cursor,
    cursorSchema,
    () => new AppError("BAD_REQUEST", "Invalid cursor"),
    ([, at]) => !Number.isNaN(new Date(at).getTime()),
  );
  return { createdAt: new Date(at), id };
}

/**
 * A filter from any surface (GraphQL input, query parameters), checked by the shared schema.
 * @throws AppError VALIDATION_FAILED with the first problem's message.
 */
export function parseAuditFilter(input: unknown): AuditFilter {
  const parsed = auditFilterSchema.safeParse(input ?? {});
  if (!parsed.success) {
    throw new AppError("VALIDATION_FAILED", parsed.error.issues[0]?.message ?? "Invalid filter");
  }
  return parsed.data;
}

type AuditRow = Omit<AuditEntryView, "actorName" | "targetName">;

/** The user id an entry targets: a user's id (1 to 9 digits) when its target is a user, else null. */
function targetUserId(row: Pick<AuditRow, "targetType" | "targetId">): number | null {
  return row.targetType === "user" && row.targetId !== null && /^[0-9]{1,9}$/.test(row.targetId)
    ? Number(row.targetId)
    : null;
}

async function readEntries(
  db: Db,
  userNames: UserNames,
  where: Prisma.Sql,
  after: Cursor | null,
  limit: number,
): Promise<AuditEntryView[]> {
  const keyset = after
    ? Prisma.sql`AND (a."createdAt", a.id) < (${after.createdAt}::timestamptz, ${after.id}::int)`
    : Prisma.empty;
  const rows = await db.prisma.$queryRaw<AuditRow[]>`
    SELECT a.id, a."createdAt", a.action, a."actorId", a."targetType", a."targetId",
           a.ip, a."requestId", a.before, a.after, a.metadata
    FROM audit_logs a
    WHERE ${where} ${keyset}
    ORDER BY a."createdAt" DESC, a.id DESC
    LIMIT ${limit}`;
  const ids = new Set<number>();
  for (const row of rows) {
    if (row.actorId !== null) ids.add(row.actorId);
    const target = targetUserId(row);
    if (target !== null) ids.add(target);
  }
  const names = ids.size > 0 ? await userNames([...ids]) : new Map<number, string | null>();
  const nameOf = (id: number | null) => (id === null ? null : (names.get(id) ?? null));
  return rows.map((row) => ({
    id: row.id,
    createdAt: row.createdAt,
    action: row.action,
    actorId: row.actorId,
    actorName: nameOf(row.actorId),
    targetType: row.targetType,
    targetId: row.targetId,
    targetName: nameOf(targetUserId(row)),
    ip: row.ip,
    requestId: row.requestId,
    before: row.before,
    after: row.after,
    metadata: row.metadata,
  }));
}

/**
 * One page of the audit log, newest first: `filter` (shared schema), `first` entries (1 to 200,
 * default 50) after the cursor `after`; entries of areas the reader lacks the permission for are
 * left out ({@link AUDIT_AREAS}).
 * @throws AppError VALIDATION_FAILED for a bad filter or page size, BAD_REQUEST for a bad cursor.
 */
export async function listAuditEntries(props: {
  db: Db;
  userNames: UserNames;
  filter?: unknown;
  first?: number;
  after?: string;
  readerPermissions: readonly string[];
}): Promise<AuditPage> {
  const filter = parseAuditFilter(props.filter);
  const page = auditPageSchema.safeParse({ first: props.first, after: props.after });
  if (!page.success) throw new AppError("VALIDATION_FAILED", page.error.issues[0]?.message ?? "Invalid page");
  const { first, after } = page.data;
  const where = auditWhere(filter, hiddenAuditPrefixes(props.readerPermissions));
  const rows = await readEntries(
    props.db,
    props.userNames,
    where,
    after ? parseCursor(after) : null,
    first + 1,
  );
  const nodes = rows.slice(0, first);
  const last = nodes.at(-1);
  return { nodes, endCursor: last ? cursorOf(last) : null, hasNextPage: rows.length > first };
}

/**
 * Every entry matching `filter` (already parsed), newest first, read in keyset batches of
 * `batchSize`: for the CSV export, which holds one batch in memory at a time.
 */
export async function* auditEntriesInBatches(props: {
  db: Db;
  userNames: UserNames;
  filter: AuditFilter;
  readerPermissions: readonly string[];
  batchSize?: number;
}): AsyncGenerator<AuditEntryView[]> {
  const size = props.batchSize ?? 1000;
  const where = auditWhere(props.filter, hiddenAuditPrefixes(props.readerPermissions));
  let after: Cursor | null = null;
  for (;;) {
    const rows = await readEntries(props.db, props.userNames, where, after, size);
    if (rows.length > 0) yield rows;
    const last = rows.at(-1);
    if (!last || rows.length < size) return;
    after = { createdAt: last.createdAt, id: last.id };
  }
}
