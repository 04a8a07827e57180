import { migrateDatabase } from "@db/migrate";
import { connectPostgres, type Db } from "@services/shared/db";
import { scratchDatabase } from "@services/shared/testing/db";
import { createSecurityQuestions, createUser, TEST_PASSWORD } from "@services/shared/testing/factories";
import { loginDigest, loginUser } from "./loginUser";

// The security settings are one row shared by the whole run, so this file switches them in a
// database of its own.

let scratch: { url: string; drop(): Promise<void> };
let db: Db;

beforeAll(async () => {
  scratch = await scratchDatabase();
  await migrateDatabase({ url: scratch.url });
  db = await connectPostgres(scratch.url);
});

afterAll(async () => {
  await db?.close();
  await scratch?.drop();
});

async function settings(values: { requireVerifiedEmail: boolean; revealUnknownAccounts: boolean }) {
  await db.prisma.securitySettings.upsert({ where: { id: 1 }, create: { id: 1, ...values }, update: values });
}

describe("loginUser", () => {
  it("hides unknown accounts behind 'Invalid login credentials' unless revealUnknownAccounts", async () => {
    await settings({ requireVerifiedEmail: true, revealUnknownAccounts: false });
    await expect(loginUser({ db, login: "nobody-here", password: TEST_PASSWORD })).rejects.toMatchObject({
      code: "INVALID_CREDENTIALS",
      message: "Invalid login credentials",
    });
    await settings({ requireVerifiedEmail: true, revealUnknownAccounts: true });
    await expect(loginUser({ db, login: "nobody-here", password: TEST_PASSWORD })).rejects.toMatchObject({
      code: "ACCOUNT_NOT_FOUND",
      message: "Account not found",
    });
    const failures = await db.prisma.auditLog.count({
      where: {
        action: "user.login_failed",
        targetType: "login_sha256",
        targetId: loginDigest("Nobody-Here"),
      },
    });
    expect(failures).toBe(2);
    expect(await db.prisma.auditLog.count({ where: { targetId: "nobody-here" } })).toBe(0);
  });

  it("admits an unverified email when verification is not required, stamping lastLoginAt", async () => {
    const user = await createUser(db, { emailVerified: false });
    await settings({ requireVerifiedEmail: true, revealUnknownAccounts: false });
    await expect(loginUser({ db, login: user.username, password: TEST_PASSWORD })).rejects.toMatchObject({
      code: "EMAIL_NOT_VERIFIED",
      details: { needsVerification: true },
    });
    await settings({ requireVerifiedEmail: false, revealUnknownAccounts: false });
    const outcome = await loginUser({ db, login: user.username, password: TEST_PASSWORD, ip: "203.0.113.9" });
    expect(outcome.kind).toBe("granted");
    expect(outcome.user.lastLoginAt).not.toBeNull();
    const row = await db.prisma.auditLog.findFirst({
      where: { action: "user.login_succeeded", actorId: user.id },
    });
    expect(row?.ip).toBe("203.0.113.9");
  });

  it("names the support phone of the branding settings for a deactivated account", async () => {
    await db.prisma.brandingConfig.create({
      data: { title: "ESRT", logoUrl: "https://example.test/logo.svg", supportPhone: "(555) 010-0100" },
    });
    const user = await createUser(db, { userStatus: "inactive" });
    await expect(loginUser({ db, login: user.email, password: TEST_PASSWORD })).rejects.toMatchObject({
      code: "ACCOUNT_INACTIVE",
      details: { status: "deactivated" },
      message: "This account has been deactivated. Please contact support at (555) 010-0100 for assistance.",
    });
  });

  it("asks an enhanced-security user one of their questions instead of granting", async () => {
    const user = await createUser(db, { securityLevel: "enhanced" });
    await createSecurityQuestions(db, user.id);
    const outcome = await loginUser({ db, login: user.username, password: TEST_PASSWORD });
    expect(outcome.kind).toBe("challenge");
    if (outcome.kind === "challenge") {
      expect([0, 1, 2]).toContain(outcome.question.index);
      expect(outcome.question.text).toMatch(/\?$/);
    }
    expect((await db.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).lastLoginAt).toBeNull();
  });
});
