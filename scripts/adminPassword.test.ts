import { spawn } from "node:child_process";
import path from "node:path";
import { passwordSchema } from "@schema/validation/user";
import { seed } from "@services/seed";
import { parseConfig } from "@services/shared/config";
import { connectPostgres, type Db } from "@services/shared/db";
import { migratedScratchDatabase } from "@services/shared/testing/db";
import { verifyPassword } from "@services/user";
import { AdminPasswordError, setAdminPassword } from "./adminPassword";

// `make admin-password`: a newcomer whose database already had an admin (so never saw the generated
// password) gets a new one, and the admin's sessions end.

const root = path.resolve(__dirname, "..");
let scratch: { url: string; drop(): Promise<void> };
let db: Db;

beforeEach(async () => {
  scratch = await migratedScratchDatabase();
  db = await connectPostgres(scratch.url);
});

afterEach(async () => {
  await db.close();
  await scratch.drop();
});

const FIRST_PASSWORD = "First-pass-2026!";

async function seedAdmin(): Promise<number> {
  const result = await seed(
    db,
    parseConfig({ ADMIN_PASSWORD: FIRST_PASSWORD, ADMIN_EMAIL: "owner@example.test" }),
  );
  return result.admin.id;
}

function run(
  script: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", script], {
      cwd: root,
      env: { ...process.env, LOG_LEVEL: "silent", ADMIN_PASSWORD: "", ADMIN_EMAIL: "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once("error", reject);
    child.once("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("setAdminPassword", () => {
  it("sets a generated password, hashed with argon2id, and ends the admin's sessions", async () => {
    const id = await seedAdmin();
    const before = new Date(Date.now() - 1000);
    const result = await setAdminPassword({ db, username: "admin" });
    expect(result).toMatchObject({ id, username: "admin", email: "owner@example.test" });
    const generated = result.generatedPassword ?? "";
    expect(passwordSchema.safeParse(generated).success).toBe(true);

    const admin = await db.prisma.user.findUniqueOrThrow({ where: { id } });
    expect(admin.password).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(admin.password, generated)).toBe(true);
    expect(await verifyPassword(admin.password, FIRST_PASSWORD)).toBe(false);
    expect(admin.sessionsValidAfter?.getTime()).toBeGreaterThan(before.getTime());

    const event = await db.prisma.outboxEvent.findFirstOrThrow({ where: { type: "user.password_changed" } });
    expect(event.envelope).toMatchObject({
      payload: { userId: id, via: "admin" },
      actor: { kind: "system" },
    });
    expect(
      await db.prisma.auditLog.count({ where: { action: "user.password_changed", targetId: String(id) } }),
    ).toBe(1);
  });

  it("takes the password given, and refuses one that breaks the password rules", async () => {
    const id = await seedAdmin();
    const result = await setAdminPassword({ db, password: "Chosen-pass-77" });
    expect(result.generatedPassword).toBeUndefined();
    const admin = await db.prisma.user.findUniqueOrThrow({ where: { id } });
    expect(await verifyPassword(admin.password, "Chosen-pass-77")).toBe(true);

    await expect(setAdminPassword({ db, password: "no-digits-here" })).rejects.toThrow(
      "ADMIN_PASSWORD: Password must contain at least one number",
    );
    await expect(setAdminPassword({ db, password: "Password1!" })).rejects.toThrow(/too common/);
    const unchanged = await db.prisma.user.findUniqueOrThrow({ where: { id } });
    expect(unchanged.password).toBe(admin.password);
  });

  it("finds the mainAdmin by ADMIN_EMAIL, and says who the mainAdmins are when none has it", async () => {
    await seedAdmin();
    const second = await db.prisma.user.create({
      data: {
        uniqueId: "ESRT-SECOND",
        username: "second",
        email: "second@example.test",
        password: "x",
        firstName: "Second",
        lastName: "Admin",
        userType: "mainAdmin",
      },
    });
    const result = await setAdminPassword({ db, email: "Second@Example.test", username: "admin" });
    expect(result.id).toBe(second.id);
    await expect(setAdminPassword({ db, email: "nobody@example.test" })).rejects.toThrow(
      /No mainAdmin has the email nobody@example\.test .*admin <owner@example\.test>, second <second@example\.test>/,
    );
  });

  it("says how to create the admin when there is none", async () => {
    await expect(setAdminPassword({ db })).rejects.toThrow(AdminPasswordError);
    await expect(setAdminPassword({ db })).rejects.toThrow(/make start/);
  });
});

describe("make admin-password (the command)", () => {
  it("prints a new password once, or sets ADMIN_PASSWORD, on the database start-up uses", async () => {
    const id = await seedAdmin();
    // an unknown ADMIN_EMAIL changes nothing: that run goes beside the first
    const refusing = run("scripts/adminPassword.ts", {
      DATABASE_URL: scratch.url,
      ADMIN_EMAIL: "nobody@example.test",
    });
    const generated = await run("scripts/adminPassword.ts", { DATABASE_URL: scratch.url });
    expect(generated.stderr).toBe("");
    expect(generated.code).toBe(0);
    const printed = /New password for mainAdmin "admin" \(owner@example\.test\): (\S+)/.exec(
      generated.stdout,
    )?.[1];
    expect(printed).toBeDefined();
    expect(generated.stdout).toContain("It is shown only this once. Their sessions have ended.");
    let admin = await db.prisma.user.findUniqueOrThrow({ where: { id } });
    expect(await verifyPassword(admin.password, printed ?? "")).toBe(true);

    const chosen = await run("scripts/adminPassword.ts", {
      DATABASE_URL: scratch.url,
      ADMIN_PASSWORD: "Chosen-pass-88",
    });
    expect(chosen.code).toBe(0);
    expect(chosen.stdout).toContain(
      'The password of mainAdmin "admin" (owner@example.test) is now ADMIN_PASSWORD.',
    );
    expect(chosen.stdout).not.toContain("Chosen-pass-88");
    admin = await db.prisma.user.findUniqueOrThrow({ where: { id } });
    expect(await verifyPassword(admin.password, "Chosen-pass-88")).toBe(true);

    const refused = await refusing;
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^No mainAdmin has the email nobody@example\.test/);
    expect(refused.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);

  it("is what start-up's seed points to when the admin exists", async () => {
    await seedAdmin();
    const seeded = await run("services/seed.ts", { DATABASE_URL: scratch.url, LOG_LEVEL: "info" });
    expect(seeded.code).toBe(0);
    expect(seeded.stdout).toContain(
      'mainAdmin \\"admin\\" (owner@example.test) exists. To set a new password: `make admin-password`',
    );
  }, 30_000);
});
