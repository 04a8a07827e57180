import type { Db } from "@services/shared/db";
import { isAppError } from "@services/shared/errors";
import { registerIsolatedDb } from "@services/shared/testing/db";
import { createUser, uniqueSuffix } from "@services/shared/testing/factories";
import { importClients } from "./importClients";
import { claimUserJob, runUserJob } from "./runner";

// The client import on a database of the file's own: a dry run reports every bad row in the
// registration's words and creates nothing; the real run creates exactly the good rows, as clients,
// and invites each.

const isolated = registerIsolatedDb();
let db: Db;
beforeAll(() => {
  db = isolated.db;
});

const HEADER = "firstName,lastName,username,email,phone,companyName";

describe("importClients", () => {
  it("reports every bad row in the registration's words in a dry run, then creates and invites only the good rows", async () => {
    const admin = await createUser(db, { userType: "userAdmin" });
    const existing = await createUser(db);
    const t = uniqueSuffix();
    const csv = [
      HEADER,
      `Ada,Lovelace,ada_${t},ada_${t}@client.test,+1 (555) 010-2000,Analytical Engines`,
      `,Babbage,charles_${t},charles_${t}@client.test,,`,
      `Grace,Hopper,gh,not-an-email,12,Navy`,
      `Alan,Turing,ada_${t},alan_${t}@client.test,,`,
      `Edsger,Dijkstra,${existing.username},${existing.email.toUpperCase()},,`,
      `"=HYPERLINK(""x"")",Hamilton,margaret_${t},margaret_${t}@client.test,,"Apollo, Inc."`,
    ].join("\n");

    const dry = await importClients({ db, actor: admin, csv, dryRun: true });
    expect(dry).toMatchObject({ dryRun: true, totalRows: 6, acceptedRows: 2, rejectedRows: 4, job: null });
    expect(dry.errors).toEqual([
      { row: 3, field: "firstName", message: "First name is required" },
      { row: 4, field: "username", message: "Username must be at least 3 characters" },
      { row: 4, field: "email", message: "Please enter a valid email address" },
      { row: 4, field: "phone", message: "Please enter a valid phone number" },
      { row: 5, field: "username", message: "Username appears more than once in the file (first on row 2)" },
      { row: 6, field: "username", message: "Username already taken" },
      { row: 6, field: "email", message: "Email already registered" },
    ]);
    expect(await db.prisma.user.count({ where: { username: { contains: t } } })).toBe(0);
    expect(await db.prisma.userJob.count()).toBe(0);

    const real = await importClients({ db, actor: admin, csv, dryRun: false });
    expect(real).toMatchObject({
      dryRun: false,
      acceptedRows: 2,
      job: { kind: "import", total: 2, status: "queued" },
    });
    const job = await claimUserJob(db);
    if (!job) throw new Error("no job");
    await runUserJob(db, job, () => false);
    const created = await db.prisma.user.findMany({
      where: { username: { contains: t } },
      orderBy: { id: "asc" },
    });
    expect(created.map((u) => [u.username, u.userType, u.emailVerified, u.companyName])).toEqual([
      [`ada_${t}`, "client", false, "Analytical Engines"],
      [`margaret_${t}`, "client", false, "Apollo, Inc."],
    ]);
    const invited = await db.prisma.outboxEvent.findMany({ where: { type: "user.invited" } });
    expect(invited.map((e) => (e.envelope as { payload: { userId: number } }).payload.userId).sort()).toEqual(
      created.map((u) => u.id).sort(),
    );
    expect(await db.prisma.auditLog.count({ where: { action: "user.created", actorId: admin.id } })).toBe(2);
    expect(
      await db.prisma.auditLog.count({ where: { action: "user.import_started", actorId: admin.id } }),
    ).toBe(1);
    expect(await db.prisma.userJob.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({
      status: "done",
      done: 2,
      failed: 0,
      skipped: 0,
    });
  });

  it("refuses a file without the header, one that is not CSV, and one over 5,000 rows or 2 MB", async () => {
    const admin = await createUser(db, { userType: "mainAdmin" });
    const cases: [string, string, string][] = [
      ["name,email\nA,a@b.c", "VALIDATION_FAILED", "The first row must name the columns"],
      [`${HEADER}\n"unclosed,quote`, "VALIDATION_FAILED", "The file could not be read as CSV"],
      [`${HEADER}\n${"a,b,c,d@e.fg,,\n".repeat(5001)}`, "PAYLOAD_TOO_LARGE", "at most 5,000 can be imported"],
      [`${HEADER}\n${"x".repeat(2 * 1024 * 1024)}`, "PAYLOAD_TOO_LARGE", "larger than 2 MB"],
      [HEADER, "VALIDATION_FAILED", "no rows"],
    ];
    for (const [csv, code, message] of cases) {
      const err = await importClients({ db, actor: admin, csv, dryRun: true }).catch((e: unknown) => e);
      expect(isAppError(err) && err.code).toBe(code);
      expect(err instanceof Error && err.message).toContain(message);
    }
  });
});
