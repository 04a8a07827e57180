import type { Db } from "../db";
import { Prisma } from "../generated/prisma/client";
import { testDb } from "../testing/db";
import { uniqueSuffix } from "../testing/factories";
import { claimLeasedJob } from "./leasedJobs";
import { type LeaseRunner, startLeaseRunner } from "./leaseRunner";

// The shared lease runner on a job table of this file's own: each job claimed once, a lease that
// runs out taken over by another runner, a NOTIFY that wakes it, and stop() waiting for the work in
// flight.

jest.setTimeout(30_000);

let db: Db;
let table: string;
let channel: string;
const runners: LeaseRunner[] = [];

beforeAll(async () => {
  db = await testDb();
  const suffix = uniqueSuffix()
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");
  table = `lease_runner_jobs_${suffix}`;
  channel = `lease_runner_${suffix}`;
  await db.prisma.$executeRawUnsafe(`
    CREATE TABLE "${table}" (id serial PRIMARY KEY, status text NOT NULL DEFAULT 'queued',
      "startedAt" timestamptz, "leaseUntil" timestamptz, runs int NOT NULL DEFAULT 0)`);
});
afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.stop()));
  await db.prisma.$executeRawUnsafe(`DELETE FROM "${table}"`);
});

const t = () => Prisma.raw(`"${table}"`);

async function addJobs(n: number): Promise<number[]> {
  const rows = await db.prisma.$queryRaw<{ id: number }[]>`
    INSERT INTO ${t()} (status) SELECT 'queued' FROM generate_series(1, ${n}) RETURNING id`;
  return rows.map((r) => r.id);
}

function claimJob(leaseMs: number) {
  return claimLeasedJob<{ id: number }>(db, { table, leaseMs, returning: Prisma.sql`x.id` });
}

async function finish(id: number): Promise<void> {
  await db.prisma
    .$executeRaw`UPDATE ${t()} SET status = 'done', runs = runs + 1, "leaseUntil" = NULL WHERE id = ${id}`;
}

async function start(
  run: (job: { id: number }, isStopped: () => boolean) => Promise<void>,
  options: { leaseMs?: number; pollMs?: number; concurrency?: number; channel?: string } = {},
): Promise<LeaseRunner> {
  const runner = await startLeaseRunner<{ id: number }>({
    db,
    channel: options.channel,
    pollMs: options.pollMs ?? 50,
    concurrency: options.concurrency,
    claim: async (room) => {
      const jobs: { id: number }[] = [];
      for (let i = 0; i < room; i++) {
        const job = await claimJob(options.leaseMs ?? 30_000);
        if (!job) break;
        jobs.push(job);
      }
      return jobs;
    },
    run,
    onClaimError: (err) => {
      throw err;
    },
  });
  runners.push(runner);
  return runner;
}

async function until(check: () => Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function statuses(): Promise<{ id: number; status: string; runs: number }[]> {
  return db.prisma.$queryRaw`SELECT id, status, runs FROM ${t()} ORDER BY id`;
}

function deferred(): { promise: Promise<void>; resolve(): void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve: () => resolve() };
}

describe("startLeaseRunner", () => {
  // (inside the describe: runs before the shared connection closes)
  afterAll(async () => {
    await db.prisma.$executeRawUnsafe(`DROP TABLE IF EXISTS "${table}"`);
  });

  it("claims every queued job once, at most `concurrency` at a time, across two runners", async () => {
    const ids = await addJobs(12);
    let running = 0;
    let most = 0;
    const run = async (job: { id: number }) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, 10));
      await finish(job.id);
      running -= 1;
    };
    await start(run, { concurrency: 2 });
    await start(run, { concurrency: 2 });
    await until(async () => (await statuses()).every((j) => j.status === "done"), "every job done");
    const rows = await statuses();
    expect(rows.map((r) => r.id)).toEqual(ids);
    expect(rows.every((r) => r.runs === 1)).toBe(true);
    expect(most).toBeLessThanOrEqual(4);
  });

  it("leaves a job under a live lease alone, and takes it over once the lease runs out", async () => {
    const [id] = await addJobs(1);
    const hung = deferred();
    const firstSaw: number[] = [];
    await start(
      async (job) => {
        firstSaw.push(job.id);
        await hung.promise; // a worker that hangs (or died) and never finishes the job
      },
      { leaseMs: 600 },
    );
    await until(async () => firstSaw.length === 1, "the first runner's claim");
    const secondSaw: number[] = [];
    const claimedAt = Date.now();
    let takenAfterMs = 0;
    await start(async (job) => {
      takenAfterMs = Date.now() - claimedAt;
      secondSaw.push(job.id);
      await finish(job.id);
    });
    await until(async () => secondSaw.length === 1, "the second runner's takeover");
    expect(secondSaw).toEqual([id]);
    expect(takenAfterMs).toBeGreaterThanOrEqual(400);
    expect(firstSaw).toEqual([id]);
    hung.resolve();
  });

  it("wakes on its NOTIFY channel long before its timer", async () => {
    const seen: number[] = [];
    await start(
      async (job) => {
        seen.push(job.id);
        await finish(job.id);
      },
      { pollMs: 60_000, channel },
    );
    await new Promise((r) => setTimeout(r, 200)); // its first claim found nothing
    const [id] = await addJobs(1);
    await db.prisma.$executeRawUnsafe(`SELECT pg_notify('${channel}', '')`);
    await until(async () => seen.length === 1, "the notified claim", 5000);
    expect(seen).toEqual([id]);
  });

  it("stop() stops claiming and waits for the work in flight", async () => {
    await addJobs(3);
    const gate = deferred();
    const started: number[] = [];
    let sawStop = false;
    const runner = await start(
      async (job, isStopped) => {
        started.push(job.id);
        await gate.promise;
        sawStop = isStopped();
        await finish(job.id);
      },
      { concurrency: 1 },
    );
    await until(async () => started.length === 1, "the first job's start");
    let stopped = false;
    const stopping = runner.stop().then(() => {
      stopped = true;
    });
    await new Promise((r) => setTimeout(r, 150));
    expect(stopped).toBe(false);
    gate.resolve();
    await stopping;
    expect(sawStop).toBe(true);
    const rows = await statuses();
    expect(rows.filter((r) => r.status === "done")).toHaveLength(1);
    expect(started).toHaveLength(1);
    expect(runner.stop()).toBe(runner.stop());
  });

  it("refuses a concurrency that is not a positive integer", async () => {
    await expect(start(async () => undefined, { concurrency: 0 })).rejects.toThrow(RangeError);
  });
});
