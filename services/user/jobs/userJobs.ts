import {
  BULK_MAX_FILTERED,
  BULK_MAX_IDS,
  type BulkActionInput,
  type NewUser,
} from "@schema/validation/userAdmin";
import type { UserFilter } from "@schema/validation/userDirectory";
import { audit } from "@services/shared/audit";
import { idCursor } from "@services/shared/cursor";
import type { Db, Tx } from "@services/shared/db";
import { AppError } from "@services/shared/errors";
import { Prisma } from "@services/shared/generated/prisma/client";
import type { UserJobItemOutcome, UserJobStatus, UserType } from "@services/shared/generated/prisma/enums";
import { LEASED_JOB_SELECT, type LeasedJobView } from "@services/shared/jobs/leasedJobs";
import { type AdminCommandProps } from "../changeUserAccount";
import { userFilterWhere } from "../directory/filter";
import { assertMayGrant } from "../grants";

// Bulk changes and client imports as jobs (issue 11): a user_jobs row with progress and a
// user_job_items row per user (or import row), made when the job starts, so "every user matching the
// filter" means the users that matched then. ./runner.ts works the items off.

/** How many unfinished jobs (queued or running) one administrator may have at once. */
export const MAX_OPEN_JOBS_PER_ADMIN = 2;
export const TOO_MANY_JOBS_MESSAGE = `You already have ${MAX_OPEN_JOBS_PER_ADMIN} jobs running. Please wait for one to finish.`;

/** A job as the admin pages show it. */
export interface UserJobView extends LeasedJobView {
  action: string;
  value: string | null;
  status: UserJobStatus;
  /** items changed (bulk) or users created (import) */
  done: number;
  skipped: number;
  selection: string;
  actorId: number;
}

const jobSelect = {
  ...LEASED_JOB_SELECT,
  action: true,
  value: true,
  status: true,
  skipped: true,
  selection: true,
  actorId: true,
} as const;

/** Which users a bulk change acts on: ids, or every user matching a filter when the job starts. */
export type BulkSelection = { kind: "ids"; ids: number[] } | { kind: "filter"; filter: UserFilter };

/**
 * Refuses a new job while the administrator already has {@link MAX_OPEN_JOBS_PER_ADMIN} unfinished
 * ones (serialised per administrator by an advisory lock held to the end of `tx`).
 * @throws AppError RATE_LIMITED.
 */
async function assertMayOpenJob(tx: Tx, actorId: number): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('user_jobs'), ${actorId})`;
  const open = await tx.userJob.count({ where: { actorId, status: { in: ["queued", "running"] } } });
  if (open >= MAX_OPEN_JOBS_PER_ADMIN) throw new AppError("RATE_LIMITED", TOO_MANY_JOBS_MESSAGE);
}

/**
 * Starts a bulk change: records the selected users (ids in the given order, or every user matching
 * the filter now, by id), queues the job for the runner and audits the start. Each user's change is
 * later made by the same service function a single change uses, with its own event and audit row.
 * @throws AppError VALIDATION_FAILED (no users, too many), RATE_LIMITED (too many open jobs),
 * FORBIDDEN (not a user administrator); UserError NOT_ALLOWED (a type the actor may not grant).
 */
export async function startUserBulkJob(
  props: AdminCommandProps & { selection: BulkSelection; action: BulkActionInput },
): Promise<UserJobView> {
  const { selection, action, actor } = props;
  if (actor.userType !== "mainAdmin" && actor.userType !== "userAdmin") {
    throw new AppError("FORBIDDEN", "You don't have the necessary permissions to access this area.");
  }
  if (action.action === "setType") assertMayGrant(actor.userType, action.value as UserType);
  if (selection.kind === "ids") {
    if (selection.ids.length === 0) throw new AppError("VALIDATION_FAILED", "Select at least one user");
    if (selection.ids.length > BULK_MAX_IDS) {
      throw new AppError(
        "VALIDATION_FAILED",
        `At most ${BULK_MAX_IDS.toLocaleString("en-US")} users can be selected by row; use "select all matching" for more`,
      );
    }
  }
  const job = await props.db.prisma.$transaction(
    async (tx) => {
      await assertMayOpenJob(tx, actor.id);
      if (selection.kind === "filter") {
        const [matched] = await tx.$queryRaw<{ count: number }[]>`
          SELECT count(*)::int AS count FROM users u WHERE ${userFilterWhere(selection.filter)}`;
        const count = matched?.count ?? 0;
        if (count > BULK_MAX_FILTERED) {
          throw new AppError(
            "VALIDATION_FAILED",
            `${count.toLocaleString("en-US")} users match the filter; one bulk change covers at most ${BULK_MAX_FILTERED.toLocaleString("en-US")}. Narrow the filter.`,
          );
        }
      }
      const created = await tx.userJob.create({
        data: {
          kind: "bulk",
          action: action.action,
          value: action.value ?? null,
          selection: selection.kind,
          actorId: actor.id,
          ip: props.ip ?? null,
        },
        select: { id: true },
      });
      const total =
        selection.kind === "ids"
          ? await tx.$executeRaw`
              INSERT INTO user_job_items ("jobId", position, "userId")
              SELECT ${created.id}, min(t.ord)::int, t.id
              FROM unnest(${[...new Set(selection.ids)]}::int[]) WITH ORDINALITY AS t(id, ord)
              GROUP BY t.id`
          : await tx.$executeRaw`
              INSERT INTO user_job_items ("jobId", position, "userId")
              SELECT ${created.id}, (row_number() OVER (ORDER BY u.id))::int, u.id
              FROM users u WHERE ${userFilterWhere(selection.filter)}`;
      if (total === 0) throw new AppError("VALIDATION_FAILED", "No users match the selection");
      const job = await tx.userJob.update({ where: { id: created.id }, data: { total }, select: jobSelect });
      await audit(tx, {
        action: "user.bulk_job_started",
        actorId: actor.id,
        targetType: "user_job",
        targetId: job.id,
        ip: props.ip,
        metadata: { action: action.action, value: action.value ?? null, selection: selection.kind, total },
      });
      await tx.$executeRaw`SELECT pg_notify('user_jobs', '')`;
      return job;
    },
    { timeout: 60_000 },
  );
  return job;
}

/**
 * Starts a client import: one item per accepted row (its fields; the position is the file's row
 * number), queued for the runner, which creates each client and invites them; audited.
 * @throws AppError RATE_LIMITED (too many open jobs), VALIDATION_FAILED (no rows).
 */
export async function startImportJob(
  props: AdminCommandProps & { rows: { row: number; data: Omit<NewUser, "userType"> }[]; rejected: number },
): Promise<UserJobView> {
  if (props.rows.length === 0) throw new AppError("VALIDATION_FAILED", "No row can be imported");
  return props.db.prisma.$transaction(
    async (tx) => {
      await assertMayOpenJob(tx, props.actor.id);
      const job = await tx.userJob.create({
        data: {
          kind: "import",
          action: "invite",
          value: "client",
          selection: "csv",
          total: props.rows.length,
          actorId: props.actor.id,
          ip: props.ip ?? null,
        },
        select: jobSelect,
      });
      await tx.userJobItem.createMany({
        data: props.rows.map((r) => ({
          jobId: job.id,
          position: r.row,
          data: r.data as Prisma.InputJsonObject,
        })),
      });
      await audit(tx, {
        action: "user.import_started",
        actorId: props.actor.id,
        targetType: "user_job",
        targetId: job.id,
        ip: props.ip,
        metadata: { accepted: props.rows.length, rejected: props.rejected },
      });
      await tx.$executeRaw`SELECT pg_notify('user_jobs', '')`;
      return job;
    },
    { timeout: 60_000 },
  );
}

/** One job, or null. */
export async function getUserJob(db: Db, id: number): Promise<UserJobView | null> {
  return db.prisma.userJob.findUnique({ where: { id }, select: jobSelect });
}

/** The latest jobs, newest first. */
export async function listUserJobs(db: Db, take = 10): Promise<UserJobView[]> {
  return db.prisma.userJob.findMany({ orderBy: { id: "desc" }, take, select: jobSelect });
}

/** One item of a job's result: the user (or import row) and what happened. */
export interface UserJobItemView {
  position: number;
  userId: number | null;
  /** the user's username (or the import row's) */
  username: string | null;
  email: string | null;
  name: string | null;
  outcome: UserJobItemOutcome;
  message: string | null;
}

export interface UserJobItemPage {
  nodes: UserJobItemView[];
  endCursor: string | null;
  hasNextPage: boolean;
  totalCount: number;
}

/** The cursor of a job's results: the last item's position. */
const itemCursor = idCursor("p", () => new AppError("VALIDATION_FAILED", "The cursor is not valid"), 0);

/**
 * A page of a job's results in item order (keyset on position: pass endCursor as `after`),
 * optionally only some outcomes.
 * @throws AppError VALIDATION_FAILED for a cursor that is not one.
 */
export async function listUserJobItems(
  db: Db,
  props: { jobId: number; outcomes?: UserJobItemOutcome[]; after?: string; first?: number },
): Promise<UserJobItemPage> {
  const first = Math.min(Math.max(props.first ?? 50, 1), 200);
  const after = props.after === undefined ? 0 : itemCursor.decode(props.after);
  const outcomes = props.outcomes?.length
    ? Prisma.sql`AND i.outcome::text IN (${Prisma.join(props.outcomes)})`
    : Prisma.empty;
  const rows = await db.prisma.$queryRaw<UserJobItemView[]>`
    SELECT i.position, i."userId",
      COALESCE(u.username, i.data->>'username') AS username,
      COALESCE(u.email, i.data->>'email') AS email,
      COALESCE(u."firstName" || ' ' || u."lastName", (i.data->>'firstName') || ' ' || (i.data->>'lastName')) AS name,
      i.outcome, i.message
    FROM user_job_items i
    LEFT JOIN users u ON u.id = i."userId"
    WHERE i."jobId" = ${props.jobId} AND i.position > ${after} ${outcomes}
    ORDER BY i.position LIMIT ${first + 1}`;
  const [counted] = await db.prisma.$queryRaw<{ count: number }[]>`
    SELECT count(*)::int AS count FROM user_job_items i WHERE i."jobId" = ${props.jobId} ${outcomes}`;
  const nodes = rows.slice(0, first);
  const last = nodes[nodes.length - 1];
  return {
    nodes,
    endCursor: last ? itemCursor.encode(last.position) : null,
    hasNextPage: rows.length > first,
    totalCount: counted?.count ?? 0,
  };
}
