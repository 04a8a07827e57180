import { newUserSchema } from "@schema/validation/userAdmin";
import { audit } from "@services/shared/audit";
import type { Db } from "@services/shared/db";
import { Prisma, type User } from "@services/shared/generated/prisma/client";
import type {
  AccessLevel,
  UserJobItemOutcome,
  UserStatus,
  UserType,
} from "@services/shared/generated/prisma/enums";
import { claimLeasedJob, failLeasedJob, startJobRunner } from "@services/shared/jobs/leasedJobs";
import { logger } from "@services/shared/logger";
import { changeAccessLevel } from "../changeAccessLevel";
import { assertMayChangeAccount } from "../changeUserAccount";
import { changeUserStatus } from "../changeUserStatus";
import { changeUserType } from "../changeUserType";
import { createInvitedUser } from "../createInvitedUser";
import { isUserError } from "../errors";
import { resendVerification } from "../resendVerification";

// The runner of user jobs (bulk changes, client imports), like the Pro-app resync's
// (services/esrt-sync/jobs.ts): a worker claims a job with a lease and works its pending items off in
// batches, renewing the lease; a worker that dies leaves the lease to run out and another resumes
// with the items still pending. Each user is changed by the service function a single change uses
// (its own transaction, event and audit row).

const LEASE_MS = 30_000;
const BATCH = 100;
/** users changed at the same time (each in its own transaction; the pool holds 10 connections) */
const CONCURRENCY = 4;
const log = () => logger("user.jobs");

/** What a worker does after a user's status or type changed (e.g. ends their sessions at once). */
export type AfterAccountChange = (user: User, change: "status" | "type") => Promise<void>;

interface ClaimedJob {
  id: number;
  kind: string;
  action: string;
  value: string | null;
  actorId: number;
  ip: string | null;
  startedAt: Date;
}

/** Claims a queued job, or a running one whose worker's lease ran out. */
export async function claimUserJob(db: Db): Promise<ClaimedJob | null> {
  return claimLeasedJob<ClaimedJob>(db, {
    table: "user_jobs",
    leaseMs: LEASE_MS,
    returning: Prisma.sql`x.id, x.kind, x.action, x.value, x."actorId", x.ip, x."startedAt"`,
  });
}

interface Outcome {
  outcome: Exclude<UserJobItemOutcome, "pending">;
  message: string | null;
  userId?: number;
}

const ALREADY: Record<string, (value: string) => string> = {
  setStatus: (v) => `already ${v}`,
  setType: (v) => `already ${v}`,
  setAccessLevel: (v) => `already has ${v} access`,
};
const FIELD: Record<string, "userStatus" | "userType" | "accessLevel"> = {
  setStatus: "userStatus",
  setType: "userType",
  setAccessLevel: "accessLevel",
};
const AUDIT_ACTION: Record<string, string> = {
  setStatus: "user.status_changed",
  setType: "user.type_changed",
  setAccessLevel: "user.access_level_changed",
};

/** What a user-facing failure says; anything unexpected becomes a safe sentence (details in the log). */
function failure(err: unknown, context: Record<string, unknown>): Outcome {
  if (isUserError(err)) {
    const skipped = err.code === "NOT_ALLOWED" || err.code === "USER_NOT_FOUND";
    return {
      outcome: skipped || err.code === "USERNAME_TAKEN" || err.code === "EMAIL_TAKEN" ? "skipped" : "failed",
      message: err.message,
    };
  }
  log().warn({ err, ...context }, "a user job item failed");
  return { outcome: "failed", message: "The change could not be saved; please try again" };
}

/**
 * Applies a bulk change to one user (`target`, read with the batch; the change itself reads it again
 * under its lock) through the single-change service functions.
 */
async function applyBulk(
  db: Db,
  job: ClaimedJob,
  actor: { id: number; userType: UserType },
  userId: number,
  target: User | undefined,
  afterChange?: AfterAccountChange,
): Promise<Outcome> {
  if (!target) return { outcome: "skipped", message: "User not found" };
  if (job.action === "resendVerification") {
    if (target.emailVerified) return { outcome: "skipped", message: "email already verified" };
    if (target.userStatus !== "active")
      return { outcome: "skipped", message: `account is ${target.userStatus}` };
    await resendVerification({ db, email: target.email });
    await audit(db.prisma, {
      action: "user.verification_resent",
      actorId: actor.id,
      targetType: "user",
      targetId: target.id,
      ip: job.ip,
      metadata: { jobId: job.id },
    });
    return { outcome: "changed", message: "verification email sent" };
  }
  const value = job.value ?? "";
  const field = FIELD[job.action];
  if (!field) return { outcome: "failed", message: "Unknown action" };
  try {
    assertMayChangeAccount({
      actor,
      target,
      newType: job.action === "setType" ? (value as UserType) : undefined,
    });
  } catch (err) {
    return failure(err, { jobId: job.id, userId });
  }
  if (target[field] === value) {
    // a worker that stopped between a change and its result row: the change is this job's
    const mine = await db.prisma.auditLog.count({
      where: {
        action: AUDIT_ACTION[job.action],
        actorId: actor.id,
        targetId: String(target.id),
        createdAt: { gte: job.startedAt },
      },
    });
    if (mine > 0) return { outcome: "changed", message: null };
    return { outcome: "skipped", message: ALREADY[job.action]?.(value) ?? "already set" };
  }
  const common = { db, actor, userId, ip: job.ip };
  // (the change first: an optional call would not evaluate its arguments without a hook)
  if (job.action === "setStatus") {
    const user = await changeUserStatus({ ...common, status: value as UserStatus });
    if (afterChange) await afterChange(user, "status");
  } else if (job.action === "setType") {
    const user = await changeUserType({ ...common, userType: value as UserType });
    if (afterChange) await afterChange(user, "type");
  } else {
    await changeAccessLevel({ ...common, accessLevel: value as AccessLevel });
  }
  return { outcome: "changed", message: null };
}

/** Creates one imported client and invites them. */
async function applyImport(
  db: Db,
  job: ClaimedJob,
  actor: { id: number; userType: UserType; name: string },
  data: unknown,
): Promise<Outcome> {
  const parsed = newUserSchema.safeParse({ ...(data as object), userType: "client" });
  if (!parsed.success)
    return { outcome: "failed", message: parsed.error.issues[0]?.message ?? "Invalid row" };
  const user = await createInvitedUser({
    db,
    actor,
    input: parsed.data,
    ip: job.ip,
    via: { kind: "import", jobId: job.id },
  });
  return { outcome: "changed", message: "invitation sent", userId: user.id };
}

/**
 * Works a claimed job's pending items off in batches (the lease renewed after each), then marks it
 * done. An item's result is written after its change (a bulk change's results with its batch); a
 * change whose result a dying worker did not write is recognised by its audit row, so no user is
 * changed twice.
 */
export async function runUserJob(
  db: Db,
  job: ClaimedJob,
  isStopped: () => boolean,
  afterChange?: AfterAccountChange,
): Promise<void> {
  while (!isStopped()) {
    const items = await db.prisma.userJobItem.findMany({
      where: { jobId: job.id, outcome: "pending" },
      orderBy: { position: "asc" },
      take: BATCH,
      select: { position: true, userId: true, data: true },
    });
    if (items.length === 0) {
      await db.prisma.userJob.update({
        where: { id: job.id },
        data: { status: "done", finishedAt: new Date(), leaseUntil: null },
      });
      return;
    }
    // the actor's rights as they are now: an administrator demoted mid-job changes nobody more
    const actorRow = await db.prisma.user.findUnique({
      where: { id: job.actorId },
      select: { id: true, userType: true, userStatus: true, firstName: true, lastName: true },
    });
    const actor =
      actorRow &&
      actorRow.userStatus === "active" &&
      (actorRow.userType === "mainAdmin" || actorRow.userType === "userAdmin")
        ? {
            id: actorRow.id,
            userType: actorRow.userType,
            name: `${actorRow.firstName} ${actorRow.lastName}`.trim(),
          }
        : null;
    const counts = { changed: 0, skipped: 0, failed: 0 };
    // a bulk change reads its batch's users at once and records their outcomes at once; an import
    // records each row as it goes (the user it created is named there)
    const bulk = job.kind !== "import";
    const targets = new Map<number, User>();
    if (bulk && actor) {
      const userIds = items.flatMap((item) => (item.userId === null ? [] : [item.userId]));
      for (const user of await db.prisma.user.findMany({ where: { id: { in: userIds } } })) {
        targets.set(user.id, user);
      }
    }
    const outcomes: { position: number; outcome: Outcome }[] = [];
    let next = 0;
    // a few users at a time: each change is its own short transaction, so they do not wait on each other
    const lane = async () => {
      for (let item = items[next++]; item && !isStopped(); item = items[next++]) {
        let result: Outcome;
        if (!actor) {
          result = {
            outcome: "failed",
            message: "The administrator who started the job no longer manages users",
          };
        } else {
          try {
            result =
              job.kind === "import"
                ? await applyImport(db, job, actor, item.data)
                : item.userId === null
                  ? { outcome: "skipped", message: "User not found" }
                  : await applyBulk(db, job, actor, item.userId, targets.get(item.userId), afterChange);
          } catch (err) {
            result = failure(err, { jobId: job.id, position: item.position });
          }
        }
        counts[result.outcome] += 1;
        if (bulk) {
          outcomes.push({ position: item.position, outcome: result });
          continue;
        }
        await db.prisma.userJobItem.update({
          where: { jobId_position: { jobId: job.id, position: item.position } },
          data: {
            outcome: result.outcome,
            message: result.message,
            doneAt: new Date(),
            ...(result.userId !== undefined ? { userId: result.userId } : {}),
          },
        });
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, lane));
    if (outcomes.length > 0) {
      // (a worker stopped before this line leaves the batch pending: its changes are recognised by
      // their audit rows when the batch is worked again)
      await db.prisma.$executeRaw`
        UPDATE user_job_items AS i
        SET outcome = v.outcome::"UserJobItemOutcome", message = v.message, "doneAt" = now()
        FROM unnest(${outcomes.map((o) => o.position)}::int[], ${outcomes.map((o) => o.outcome.outcome)}::text[],
                    ${outcomes.map((o) => o.outcome.message)}::text[]) AS v(position, outcome, message)
        WHERE i."jobId" = ${job.id} AND i.position = v.position`;
    }
    await db.prisma.userJob.update({
      where: { id: job.id },
      data: {
        done: { increment: counts.changed },
        skipped: { increment: counts.skipped },
        failed: { increment: counts.failed },
        leaseUntil: new Date(Date.now() + LEASE_MS),
      },
    });
  }
}

/**
 * The user-job runner of a worker: the shared job runner, woken by NOTIFY user_jobs and a timer, one
 * job at a time. `afterChange` runs after each status or type change (the gateway ends the user's
 * sessions there; without it, the change's sessionsValidAfter refuses them on their next request).
 */
export async function startUserJobRunner(
  db: Db,
  options: { pollMs?: number; afterChange?: AfterAccountChange } = {},
): Promise<{ stop(): Promise<void> }> {
  return startJobRunner<ClaimedJob>({
    db,
    channel: "user_jobs",
    pollMs: options.pollMs ?? 5000,
    claim: () => claimUserJob(db),
    run: (job, isStopped) => runUserJob(db, job, isStopped, options.afterChange),
    fail: (job) => failLeasedJob(db, "user_jobs", job.id),
    log,
    what: "user job",
  });
}
