import type { UserFilter, UserSort } from "@schema/validation/userDirectory";
import { audit } from "@services/shared/audit";
import type { Db } from "@services/shared/db";
import { type DirectoryUser, directoryPage } from "./searchUsers";

// The directory's CSV export (issue 11, manage:users): every user matching the filter, read in keyset
// batches so that the process holds one batch at a time however many users match.

/** Rows read per query while exporting. */
export const EXPORT_BATCH_SIZE = 1000;

/**
 * The users matching the filter, in the sort's order, a batch at a time.
 * @throws Prisma errors from the queries.
 */
export async function* exportBatches(
  db: Db,
  props: { filter: UserFilter; sort: UserSort; batchSize?: number },
): AsyncGenerator<DirectoryUser[]> {
  let after: string | null = null;
  for (;;) {
    const page = await directoryPage(db, {
      filter: props.filter,
      sort: props.sort,
      first: props.batchSize ?? EXPORT_BATCH_SIZE,
      after,
    });
    if (page.nodes.length > 0) yield page.nodes;
    if (!page.hasNextPage || !page.endCursor) return;
    after = page.endCursor;
  }
}

/**
 * Records an export in the audit log: who, from where, which filter and order, how many rows, and
 * whether the download ran to its end.
 * @throws Prisma errors when the row cannot be written.
 */
export async function auditExport(
  db: Db,
  props: {
    actorId: number;
    ip: string | null;
    filter: UserFilter;
    sort: UserSort;
    rows: number;
    complete: boolean;
  },
): Promise<void> {
  await audit(db.prisma, {
    action: "user.exported",
    actorId: props.actorId,
    targetType: "user",
    ip: props.ip,
    metadata: {
      filter: JSON.parse(JSON.stringify(props.filter)),
      sort: { by: props.sort.by, direction: props.sort.direction },
      rows: props.rows,
      complete: props.complete,
    },
  });
}
