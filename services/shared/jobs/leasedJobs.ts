import type { Db } from "../db";
import { Prisma } from "../generated/prisma/client";
import { type LeaseRunner, startLeaseRunner } from "./leaseRunner";

// Job rows (a table with id, status queued/running/done/failed, startedAt, finishedAt, error and
// leaseUntil): claimed one at a time under a lease by the shared lease runner. A worker that dies
// leaves its lease to run out and another claims the job again and resumes it where its rows say.

/** What every job row shows of its progress (a job's own view adds its status and the rest). */
export interface LeasedJobView {
  id: number;
  kind: string;
  total: number;
  done: number;
  failed: number;
  error: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

/** The Prisma select of {@link LeasedJobView}'s columns. */
export const LEASED_JOB_SELECT = {
  id: true,
  kind: true,
  total: true,
  done: true,
  failed: true,
  error: true,
  createdAt: true,
  startedAt: true,
  finishedAt: true,
} as const;

/**
 * Claims the oldest queued job of `table`, or a running one whose lease ran out (`where` narrows
 * the rows further), marks it running and leased for `leaseMs`, and answers the `returning`
 * columns of the claimed row (aliased `x`), or null when none is due.
 * @throws when the database refuses the claim.
 */
export async function claimLeasedJob<T>(
  db: Db,
  props: { table: string; leaseMs: number; where?: Prisma.Sql; returning: Prisma.Sql },
): Promise<T | null> {
  const table = Prisma.raw(`"${props.table.replace(/"/g, '""')}"`);
  const where = props.where ? Prisma.sql`${props.where} AND` : Prisma.empty;
  const rows = await db.prisma.$queryRaw<T[]>`
    WITH j AS (
      SELECT id FROM ${table}
      WHERE ${where} (status = 'queued' OR (status = 'running' AND "leaseUntil" < now()))
      ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED
    )
    UPDATE ${table} x SET status = 'running', "startedAt" = COALESCE(x."startedAt", now()),
      "leaseUntil" = now() + make_interval(secs => ${props.leaseMs / 1000}::float8)
    FROM j WHERE x.id = j.id
    RETURNING ${props.returning}`;
  return rows[0] ?? null;
}

export interface JobRunnerOptions<J extends { id: number }> {
  db: Db;
  /** the NOTIFY channel a new job sends */
  channel: string;
  pollMs: number;
  claim(): Promise<J | null>;
  /** runs a claimed job to its end, or until isStopped() (the rest is left to the lease) */
  run(job: J, isStopped: () => boolean): Promise<void>;
  /** marks a job whose run threw failed */
  fail(job: J): Promise<void>;
  log(): { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** what the log calls a job ("user job", "resync job") */
  what: string;
}

/**
 * The job runner of a worker: woken by the channel's NOTIFY and a timer, one job at a time; a job
 * whose run throws is logged and marked failed.
 * @throws the database's error when it refuses the LISTEN.
 */
export function startJobRunner<J extends { id: number }>(options: JobRunnerOptions<J>): Promise<LeaseRunner> {
  const { what } = options;
  return startLeaseRunner<J>({
    db: options.db,
    channel: options.channel,
    pollMs: options.pollMs,
    claim: async () => {
      const job = await options.claim();
      return job ? [job] : [];
    },
    run: async (job, isStopped) => {
      try {
        await options.run(job, isStopped);
      } catch (err) {
        options.log().error({ err, jobId: job.id }, `${what} failed`);
        await options.fail(job);
      }
    },
    onClaimError: (err) => options.log().warn({ err }, `could not claim a ${what}; will try again`),
    onRunError: (err) => options.log().warn({ err }, `could not claim a ${what}; will try again`),
  });
}

/**
 * Marks a job of `table` failed on an internal error.
 * @throws when the database refuses the update.
 */
export async function failLeasedJob(db: Db, table: string, id: number): Promise<void> {
  const t = Prisma.raw(`"${table.replace(/"/g, '""')}"`);
  await db.prisma.$executeRaw`
    UPDATE ${t} SET status = 'failed', error = 'The job stopped on an internal error', "finishedAt" = now()
    WHERE id = ${id}`;
}
