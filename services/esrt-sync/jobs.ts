import { setTimeout as sleep } from "node:timers/promises";
import { audit } from "@services/shared/audit";
import { config } from "@services/shared/config";
import type { Db } from "@services/shared/db";
import { AppError } from "@services/shared/errors";
import { Prisma } from "@services/shared/generated/prisma/client";
import type { EsrtJobStatus } from "@services/shared/generated/prisma/enums";
import {
  claimLeasedJob,
  failLeasedJob,
  LEASED_JOB_SELECT,
  type LeasedJobView,
  startJobRunner as startLeasedJobRunner,
} from "@services/shared/jobs/leasedJobs";
import { logger } from "@services/shared/logger";
import { enqueueUserSync } from "./deliveries";
import { lockState } from "./state";

// "Resync all": a job row with progress (esrt_jobs), run by a sync worker at ESRT_RESYNC_RATE users
// a second, one job at a time. A worker that dies leaves its lease to run out; another resumes after
// the job's cursor, so no user is skipped (one may be sent twice, which the latest-state rule allows).

export const RESYNC_ALL = "resync_all";
const LEASE_MS = 30_000;
/** The logger, made on first use (importing this module reads no configuration). */
const log = () => logger("esrt.jobs");

export interface JobView extends LeasedJobView {
  status: EsrtJobStatus;
}

const jobSelect = { ...LEASED_JOB_SELECT, status: true } as const;

/** The latest jobs, newest first. */
export async function listJobs(db: Db, take = 10): Promise<JobView[]> {
  return db.prisma.esrtJob.findMany({ orderBy: { id: "desc" }, take, select: jobSelect });
}

/**
 * Queues a resync of every user; refused while one is queued or running.
 * @throws AppError CONFLICT
 */
export async function startResyncAll(props: {
  db: Db;
  actorId: number;
  ip?: string | null;
}): Promise<JobView> {
  const job = await props.db.prisma.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('esrt_resync_all'))`;
    const running = await tx.esrtJob.count({
      where: { kind: RESYNC_ALL, status: { in: ["queued", "running"] } },
    });
    if (running > 0) throw new AppError("CONFLICT", "A resync of every user is already running");
    const total = await tx.esrtUserState.count();
    const created = await tx.esrtJob.create({
      data: { kind: RESYNC_ALL, total, createdById: props.actorId },
      select: jobSelect,
    });
    await audit(tx, {
      action: "esrt.resync_all_started",
      actorId: props.actorId,
      targetType: "esrt_job",
      targetId: created.id,
      ip: props.ip,
    });
    await tx.$executeRaw`SELECT pg_notify('esrt_jobs', '')`;
    return created;
  });
  return job;
}

/** Claims a queued job, or a running one whose worker's lease ran out. */
function claimJob(db: Db): Promise<{ id: number; cursor: number } | null> {
  return claimLeasedJob(db, {
    table: "esrt_jobs",
    leaseMs: LEASE_MS,
    where: Prisma.sql`kind = ${RESYNC_ALL}`,
    returning: Prisma.sql`x.id, x.cursor`,
  });
}

/**
 * Runs one claimed job to its end: batches of ESRT_RESYNC_RATE users a second, each user's latest
 * snapshot queued on every channel, progress and the cursor saved after each batch.
 */
export async function runResyncJob(
  db: Db,
  job: { id: number; cursor: number },
  isStopped: () => boolean,
): Promise<void> {
  const rate = config().ESRT_RESYNC_RATE;
  let cursor = job.cursor;
  while (!isStopped()) {
    const started = Date.now();
    const users = await db.prisma.$queryRaw<{ userId: number }[]>`
      SELECT "userId" FROM esrt_user_states WHERE "userId" > ${cursor} ORDER BY "userId" LIMIT ${rate}`;
    if (users.length === 0) {
      await db.prisma.esrtJob.update({
        where: { id: job.id },
        data: { status: "done", finishedAt: new Date(), leaseUntil: null },
      });
      return;
    }
    let failed = 0;
    for (const { userId } of users) {
      try {
        await db.prisma.$transaction(async (tx) => {
          const state = await lockState(tx, { userId });
          if (state) await enqueueUserSync(tx, state);
        });
      } catch (err) {
        failed += 1;
        log().warn({ err, userId, jobId: job.id }, "resync of a user failed");
      }
    }
    cursor = users[users.length - 1]?.userId ?? cursor;
    await db.prisma.esrtJob.update({
      where: { id: job.id },
      data: {
        cursor,
        done: { increment: users.length - failed },
        failed: { increment: failed },
        leaseUntil: new Date(Date.now() + LEASE_MS),
      },
    });
    const wait = 1000 - (Date.now() - started);
    if (wait > 0 && users.length === rate) await sleep(wait);
  }
}

/** The job runner of a sync worker: the shared job runner, woken by NOTIFY and a timer, one job at a time. */
export function startJobRunner(db: Db, pollMs = 5000): Promise<{ stop(): Promise<void> }> {
  return startLeasedJobRunner({
    db,
    channel: "esrt_jobs",
    pollMs,
    claim: () => claimJob(db),
    run: (job, isStopped) => runResyncJob(db, job, isStopped),
    fail: (job) => failLeasedJob(db, "esrt_jobs", job.id),
    log,
    what: "resync job",
  });
}
