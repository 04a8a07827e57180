import type { Db } from "@services/shared/db";
import { isAppError } from "@services/shared/errors";
import type { UserType } from "@services/shared/generated/prisma/enums";
import { registerIsolatedDb } from "@services/shared/testing/db";
import { createUser, uniqueSuffix } from "@services/shared/testing/factories";
import { changeUserStatus } from "../changeUserStatus";
import { isUserError } from "../errors";
import { generateUniqueId } from "../uniqueId";
import { claimUserJob, runUserJob } from "./runner";
import { listUserJobItems, startUserBulkJob } from "./userJobs";

// Bulk changes as jobs on a database of the file's own (no other runner claims its jobs): every
// user changed once through the single-change service (one event and one audit row each), the
// skipped ones with their reasons, a filter resolved at the start, and a restart that resumes.

jest.setTimeout(300_000);

const isolated = registerIsolatedDb();
let db: Db;
beforeAll(() => {
  db = isolated.db;
});

/** `count` users whose company name is `company` (rows written at once), ids in creation order. */
async function manyUsers(count: number, company: string, userType: UserType = "prospect"): Promise<number[]> {
  const tag = uniqueSuffix();
  await db.prisma.user.createMany({
    data: Array.from({ length: count }, (_, i) => ({
      uniqueId: generateUniqueId(),
      username: `bulk_${tag}_${i}`,
      email: `bulk_${tag}_${i}@example.test`,
      password: "!unused",
      firstName: "Bulk",
      lastName: `User ${i}`,
      companyName: company,
      userType,
    })),
  });
  const rows = await db.prisma.user.findMany({
    where: { companyName: company },
    select: { id: true },
    orderBy: { id: "asc" },
  });
  return rows.map((r) => r.id);
}

/** Claims the next job and runs it to the end (or until `stopAfter` items). */
async function runNext(stopAfter = Number.POSITIVE_INFINITY): Promise<number> {
  const job = await claimUserJob(db);
  if (!job) throw new Error("no job to claim");
  let seen = 0;
  await runUserJob(db, job, () => seen++ >= stopAfter);
  return job.id;
}

async function outcomes(jobId: number) {
  const all = [];
  let after: string | undefined;
  for (;;) {
    const page = await listUserJobItems(db, { jobId, after, first: 200 });
    all.push(...page.nodes);
    if (!page.hasNextPage || !page.endCursor) return all;
    after = page.endCursor;
  }
}

describe("a bulk change over 5,000 users", () => {
  it("changes every user once, with one event and one audit row each, and reaches 100%", async () => {
    const admin = await createUser(db, { userType: "mainAdmin" });
    const company = `Bulk Five Thousand ${uniqueSuffix()}`;
    const ids = await manyUsers(5000, company);
    const started = new Date();
    const job = await startUserBulkJob({
      db,
      actor: admin,
      selection: { kind: "filter", filter: { q: company } },
      action: { action: "setStatus", value: "inactive" },
    });
    expect(job).toMatchObject({ status: "queued", total: 5000, done: 0, selection: "filter" });
    await runNext();

    const finished = await db.prisma.userJob.findUniqueOrThrow({ where: { id: job.id } });
    expect(finished).toMatchObject({ status: "done", total: 5000, done: 5000, skipped: 0, failed: 0 });
    expect(finished.done + finished.skipped + finished.failed).toBe(finished.total);
    expect(await db.prisma.user.count({ where: { id: { in: ids }, userStatus: "inactive" } })).toBe(5000);

    const events = await db.prisma.$queryRaw<{ userId: number; n: number }[]>`
      SELECT (envelope->'payload'->>'userId')::int AS "userId", count(*)::int AS n FROM outbox_events
      WHERE type = 'user.status_changed' AND "createdAt" >= ${started} GROUP BY 1`;
    expect(events).toHaveLength(5000);
    expect(events.every((e) => e.n === 1 && ids.includes(e.userId))).toBe(true);
    const audits = await db.prisma.$queryRaw<{ targetId: string; n: number }[]>`
      SELECT "targetId", count(*)::int AS n FROM audit_logs
      WHERE action = 'user.status_changed' AND "actorId" = ${admin.id} GROUP BY 1`;
    expect(audits).toHaveLength(5000);
    expect(audits.every((a) => a.n === 1 && ids.includes(Number(a.targetId)))).toBe(true);
    const items = await outcomes(job.id);
    expect(items).toHaveLength(5000);
    expect(items.every((i) => i.outcome === "changed")).toBe(true);
  });
});

describe("skipped users and their reasons", () => {
  it("skips the actor, admins a userAdmin may not touch, and users that already hold the value", async () => {
    const actor = await createUser(db, { userType: "userAdmin" });
    const mainAdmin = await createUser(db, { userType: "mainAdmin" });
    const already = await createUser(db, { userType: "client" });
    const prospect = await createUser(db, { userType: "prospect" });
    const job = await startUserBulkJob({
      db,
      actor,
      selection: { kind: "ids", ids: [actor.id, mainAdmin.id, already.id, prospect.id, 2_000_000_000] },
      action: { action: "setType", value: "client" },
    });
    await runNext();
    const items = await outcomes(job.id);
    expect(items.map((i) => [i.userId, i.outcome, i.message])).toEqual([
      [actor.id, "skipped", "You cannot change your own user type or status"],
      [
        mainAdmin.id,
        "skipped",
        "Only a main administrator may grant, remove or change the mainAdmin and userAdmin types",
      ],
      [already.id, "skipped", "already client"],
      [prospect.id, "changed", null],
      [2_000_000_000, "skipped", "User not found"],
    ]);
    expect(await db.prisma.userJob.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({
      status: "done",
      total: 5,
      done: 1,
      skipped: 4,
      failed: 0,
    });
    expect((await db.prisma.user.findUniqueOrThrow({ where: { id: prospect.id } })).userType).toBe("client");
    expect((await db.prisma.user.findUniqueOrThrow({ where: { id: mainAdmin.id } })).userType).toBe(
      "mainAdmin",
    );
  });

  it("refuses a userAdmin granting mainAdmin or userAdmin before any job starts", async () => {
    const actor = await createUser(db, { userType: "userAdmin" });
    const target = await createUser(db);
    for (const value of ["mainAdmin", "userAdmin"]) {
      const err = await startUserBulkJob({
        db,
        actor,
        selection: { kind: "ids", ids: [target.id] },
        action: { action: "setType", value },
      }).catch((e: unknown) => e);
      expect(isUserError(err) && err.code).toBe("NOT_ALLOWED");
    }
    expect(await db.prisma.userJob.count({ where: { actorId: actor.id } })).toBe(0);
  });

  it("resends verification only to active, unverified users", async () => {
    const actor = await createUser(db, { userType: "mainAdmin" });
    const unverified = await createUser(db, { emailVerified: false });
    const verified = await createUser(db);
    const job = await startUserBulkJob({
      db,
      actor,
      selection: { kind: "ids", ids: [unverified.id, verified.id] },
      action: { action: "resendVerification" },
    });
    await runNext();
    const items = await outcomes(job.id);
    expect(items.map((i) => [i.outcome, i.message])).toEqual([
      ["changed", "verification email sent"],
      ["skipped", "email already verified"],
    ]);
    const sent = await db.prisma.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM outbox_events WHERE type = 'user.verification_requested'
      AND (envelope->'payload'->>'userId')::int = ${unverified.id}`;
    expect(sent[0]?.n).toBe(1);
  });
});

describe("selection", () => {
  it("takes every user matching the filter when the job starts, not those who match later", async () => {
    const actor = await createUser(db, { userType: "mainAdmin" });
    const company = `Filter Co ${uniqueSuffix()}`;
    const ids = await manyUsers(30, company);
    const job = await startUserBulkJob({
      db,
      actor,
      selection: { kind: "filter", filter: { q: company, userTypes: ["prospect"] } },
      action: { action: "setAccessLevel", value: "full" },
    });
    const late = await manyUsers(5, `${company} late`);
    await runNext();
    expect(await db.prisma.user.count({ where: { id: { in: ids }, accessLevel: "full" } })).toBe(30);
    expect(await db.prisma.user.count({ where: { id: { in: late }, accessLevel: "full" } })).toBe(0);
    expect((await db.prisma.userJob.findUniqueOrThrow({ where: { id: job.id } })).done).toBe(30);
  });

  it("refuses an empty selection and more than two open jobs of one admin", async () => {
    const actor = await createUser(db, { userType: "userAdmin" });
    const target = await createUser(db);
    const empty = await startUserBulkJob({
      db,
      actor,
      selection: { kind: "filter", filter: { q: `nobody-${uniqueSuffix()}` } },
      action: { action: "setStatus", value: "inactive" },
    }).catch((e: unknown) => e);
    expect(isAppError(empty) && [empty.code, empty.message]).toEqual([
      "VALIDATION_FAILED",
      "No users match the selection",
    ]);
    const start = () =>
      startUserBulkJob({
        db,
        actor,
        selection: { kind: "ids", ids: [target.id] },
        action: { action: "setAccessLevel", value: "full" },
      });
    await start();
    await start();
    const third = await start().catch((e: unknown) => e);
    expect(isAppError(third) && [third.code, third.message]).toEqual([
      "RATE_LIMITED",
      "You already have 2 jobs running. Please wait for one to finish.",
    ]);
    await runNext();
    await runNext();
    await expect(start()).resolves.toMatchObject({ status: "queued" });
    await runNext();
  });
});

describe("a restart mid-job", () => {
  it("resumes where the stopped worker left off and changes nobody twice", async () => {
    const actor = await createUser(db, { userType: "mainAdmin" });
    const ids = await manyUsers(300, `Restart Co ${uniqueSuffix()}`);
    const job = await startUserBulkJob({
      db,
      actor,
      selection: { kind: "ids", ids },
      action: { action: "setStatus", value: "archived" },
    });
    // the first worker stops after about 120 users...
    await runNext(120);
    const changedFirst = await db.prisma.userJobItem.count({ where: { jobId: job.id, outcome: "changed" } });
    expect(changedFirst).toBeGreaterThan(100);
    expect(changedFirst).toBeLessThan(300);
    expect(await db.prisma.user.count({ where: { id: { in: ids }, userStatus: "archived" } })).toBe(
      changedFirst,
    );
    // ...and had changed one more user whose result it never wrote (it died in between)
    const [pending] = await db.prisma.userJobItem.findMany({
      where: { jobId: job.id, outcome: "pending" },
      orderBy: { position: "asc" },
      take: 1,
    });
    if (!pending?.userId) throw new Error("no pending item");
    await changeUserStatus({ db, actor, userId: pending.userId, status: "archived" });
    // its lease runs out; another worker claims the job and finishes it
    await db.prisma.userJob.update({
      where: { id: job.id },
      data: { leaseUntil: new Date(Date.now() - 1000) },
    });
    expect(await runNext()).toBe(job.id);

    const finished = await db.prisma.userJob.findUniqueOrThrow({ where: { id: job.id } });
    expect(finished).toMatchObject({ status: "done", total: 300, done: 300, skipped: 0, failed: 0 });
    const audits = await db.prisma.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM audit_logs WHERE action = 'user.status_changed' AND "actorId" = ${actor.id}
      GROUP BY "targetId"`;
    expect(audits).toHaveLength(300);
    expect(audits.every((a) => a.n === 1)).toBe(true);
    const events = await db.prisma.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM outbox_events WHERE type = 'user.status_changed'
      AND (envelope->'payload'->>'userId')::int = ANY(${ids}::int[]) GROUP BY envelope->'payload'->>'userId'`;
    expect(events).toHaveLength(300);
    expect(events.every((e) => e.n === 1)).toBe(true);
    const item = await db.prisma.userJobItem.findUniqueOrThrow({
      where: { jobId_position: { jobId: job.id, position: pending.position } },
    });
    expect(item.outcome).toBe("changed");
  });
});
