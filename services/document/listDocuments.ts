import { DOCUMENT_SORTS, type DocumentFilter, documentFilterSchema } from "@schema/validation/document";
import { MAX_DB_ID, text } from "@schema/validation/primitives";
import { decodeCursor, encodeCursor as encodeParts } from "@services/shared/cursor";
import type { Db } from "@services/shared/db";
import { AppError } from "@services/shared/errors";
import type { Prisma } from "@services/shared/generated/prisma/client";
import { parse } from "@services/shared/validation";
import { z } from "zod";
import type { DocumentActor } from "./actor";
import { DOCUMENT_INCLUDE, type DocumentView, presentDocument, withOwners } from "./present";

// The documents list (spec §5; DECISIONS.md "Documents"): one use case for the owner's own list
// (myDocuments) and the team's list of all documents (read:all_documents). Keyset pagination over
// (sort key, id): a page never skips or repeats a row when rows share a createdAt or a title, and
// its cost does not grow with the page number. The text search is ILIKE over title and file name
// (a sequential scan per page; a pg_trgm index is for a later issue, when lists grow large).

export const LIST_MESSAGES = {
  forbiddenMine: "Only clients can hold documents",
  forbiddenAll: "You don't have permission to see all documents",
  userIdMine: "Filtering by client is only available in the list of all documents",
  badCursor: "This page link is no longer valid. Please start from the first page.",
} as const;

export type DocumentSortName = (typeof DOCUMENT_SORTS)[number];

export interface DocumentStatusCountsView {
  pending: number;
  approved: number;
  rejected: number;
  total: number;
}

/** One page of documents (the contract's DocumentConnection). */
export interface DocumentConnectionView {
  nodes: DocumentView[];
  endCursor: string | null;
  hasNextPage: boolean;
  /** rows matching the filter */
  totalCount: number;
  /** rows matching the filter without its status, per status */
  counts: DocumentStatusCountsView;
}

// ---- cursors: base64url of [sort, sort key, id]; the sort is in it so a cursor of another sort is refused

// the key is text the database can compare (no NUL), the id one of its integers
const cursorSchema = z.tuple([
  z.enum(DOCUMENT_SORTS),
  text().max(500),
  z.number().int().min(1).max(MAX_DB_ID),
]);

interface Cursor {
  sort: DocumentSortName;
  key: string;
  id: number;
}

function sortKey(sort: DocumentSortName, row: { createdAt: Date; title: string }): string {
  return sort.startsWith("createdAt") ? row.createdAt.toISOString() : row.title;
}

/** The opaque cursor after `row` in a list sorted by `sort`. */
export function encodeCursor(
  sort: DocumentSortName,
  row: { id: number; createdAt: Date; title: string },
): string {
  return encodeParts([sort, sortKey(sort, row), row.id]);
}

/** @throws AppError VALIDATION_FAILED when `after` is not a cursor of this sort. */
function cursorAfter(after: string, sort: DocumentSortName): Cursor {
  const [, key, id] = decodeCursor(
    after,
    cursorSchema,
    () => new AppError("VALIDATION_FAILED", LIST_MESSAGES.badCursor),
    ([cursorSort, key]) =>
      cursorSort === sort && (!sort.startsWith("createdAt") || !Number.isNaN(Date.parse(key))),
  );
  return { sort, key, id };
}

// ---- filters

/** `term` as a LIKE pattern matching it literally anywhere (%, _ and \ escaped). */
function containsPattern(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function filterWhere(filter: DocumentFilter, ownerId: number | undefined): Prisma.DocumentWhereInput {
  const and: Prisma.DocumentWhereInput[] = [];
  if (ownerId !== undefined) and.push({ userId: ownerId });
  if (filter.userId !== undefined) and.push({ userId: filter.userId });
  if (filter.fileType) and.push({ fileType: filter.fileType });
  if (filter.fromTeam !== undefined) and.push({ fromTeam: filter.fromTeam });
  if (filter.from) and.push({ createdAt: { gte: new Date(filter.from) } });
  if (filter.to) and.push({ createdAt: { lt: new Date(filter.to) } });
  // every word of the search must appear in the title or the file name, in any case
  for (const word of (filter.search ?? "").split(/\s+/).filter(Boolean)) {
    const contains = containsPattern(word);
    and.push({
      OR: [{ title: { contains, mode: "insensitive" } }, { fileName: { contains, mode: "insensitive" } }],
    });
  }
  return { AND: and };
}

function afterWhere(cursor: Cursor): Prisma.DocumentWhereInput {
  const desc = cursor.sort.endsWith("_desc");
  const beyond = desc ? "lt" : "gt";
  if (cursor.sort.startsWith("createdAt")) {
    const at = new Date(cursor.key);
    return { OR: [{ createdAt: { [beyond]: at } }, { createdAt: at, id: { [beyond]: cursor.id } }] };
  }
  return { OR: [{ title: { [beyond]: cursor.key } }, { title: cursor.key, id: { [beyond]: cursor.id } }] };
}

function orderBy(sort: DocumentSortName): Prisma.DocumentOrderByWithRelationInput[] {
  const direction = sort.endsWith("_desc") ? "desc" : "asc";
  return sort.startsWith("createdAt")
    ? [{ createdAt: direction }, { id: direction }]
    : [{ title: direction }, { id: direction }];
}

/**
 * One page of documents. `scope` "mine": the actor's own documents, reports from the team included
 * (client-only: client, mainAdmin, userAdmin); "all": every client's (read:all_documents). The
 * filter (documentFilterSchema) narrows by status, owner (all only), file type, creation date range,
 * text (every word a case-insensitive part of the title or file name) and fromTeam; sorts (default
 * newest first); and pages with `first` (1 to 100, default 25) and `after` (a previous endCursor).
 * totalCount counts the filter's rows; counts give the filter's rows per status, ignoring its status.
 * @throws AppError FORBIDDEN (not a client / no read:all_documents), VALIDATION_FAILED (a filter
 * that does not parse, a userId on the own list, a cursor that is not one of this sort).
 */
export async function listDocuments(props: {
  db: Db;
  actor: DocumentActor;
  scope: "mine" | "all";
  filter?: unknown;
}): Promise<DocumentConnectionView> {
  const { actor, scope } = props;
  if (scope === "mine" && !actor.isClient) throw new AppError("FORBIDDEN", LIST_MESSAGES.forbiddenMine);
  if (scope === "all" && !actor.readAll) throw new AppError("FORBIDDEN", LIST_MESSAGES.forbiddenAll);
  const filter = parse(documentFilterSchema, props.filter);
  if (scope === "mine" && filter.userId !== undefined && filter.userId !== actor.id) {
    throw new AppError("VALIDATION_FAILED", LIST_MESSAGES.userIdMine);
  }
  const cursor = filter.after ? cursorAfter(filter.after, filter.sort) : null;
  const base = filterWhere(filter, scope === "mine" ? actor.id : undefined);
  const where: Prisma.DocumentWhereInput = {
    AND: [
      base,
      ...(filter.status ? [{ status: filter.status }] : []),
      ...(cursor ? [afterWhere(cursor)] : []),
    ],
  };
  const [rows, groups] = await Promise.all([
    props.db.prisma.document.findMany({
      where,
      include: DOCUMENT_INCLUDE,
      orderBy: orderBy(filter.sort),
      take: filter.first + 1,
    }),
    props.db.prisma.document.groupBy({ by: ["status"], where: base, _count: { _all: true } }),
  ]);
  const counts: DocumentStatusCountsView = { pending: 0, approved: 0, rejected: 0, total: 0 };
  for (const group of groups) {
    counts[group.status] = group._count._all;
    counts.total += group._count._all;
  }
  const page = rows.slice(0, filter.first);
  const last = page.at(-1);
  return {
    nodes: (await withOwners(props.db, page)).map(presentDocument),
    endCursor: last ? encodeCursor(filter.sort, last) : null,
    hasNextPage: rows.length > filter.first,
    totalCount: filter.status ? counts[filter.status] : counts.total,
    counts,
  };
}
