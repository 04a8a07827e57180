import { DEFAULT_EMAIL_TEMPLATES } from "@services/email";
import { parseConfig } from "@services/shared/config";
import { connectPostgres, type Db } from "@services/shared/db";
import { registerIsolatedDb } from "@services/shared/testing/db";
import { DEFAULT_BRANDING, verifyPassword } from "@services/user";
import { seed } from "./seed";

// Each test seeds its own empty database: seeding is about what a brand-new portal holds.

const scratch = registerIsolatedDb("each");
let db: Db;
beforeEach(() => {
  db = scratch.db;
});

/** What one seed (or any number of them) leaves in an empty database. */
const SEEDED_ONCE = {
  users: 1,
  branding: 1,
  storage: 1,
  security: 1,
  email: 1,
  templates: DEFAULT_EMAIL_TEMPLATES.length,
};

async function counts(): Promise<Record<string, number>> {
  const p = db.prisma;
  return {
    users: await p.user.count(),
    branding: await p.brandingConfig.count(),
    storage: await p.storageConfig.count(),
    security: await p.securitySettings.count(),
    email: await p.emailSettings.count(),
    templates: await p.emailTemplate.count(),
  };
}

describe("seed", () => {
  it("creates the defaults and the first mainAdmin from ADMIN_EMAIL/ADMIN_PASSWORD, and a second run changes nothing", async () => {
    const cfg = parseConfig({
      ADMIN_EMAIL: "Boss@Example.test",
      ADMIN_PASSWORD: "S3cret-enough!",
      ADMIN_USERNAME: "boss",
    });
    const first = await seed(db, cfg);
    expect(first.admin).toMatchObject({ username: "boss", email: "boss@example.test", created: true });
    expect(first.admin.generatedPassword).toBeUndefined();
    expect(first.templatesCreated.sort()).toEqual(DEFAULT_EMAIL_TEMPLATES.map((t) => t.key).sort());
    const after = await counts();
    expect(after).toEqual(SEEDED_ONCE);

    const admin = await db.prisma.user.findUniqueOrThrow({ where: { username: "boss" } });
    expect(admin).toMatchObject({
      userType: "mainAdmin",
      accessLevel: "full",
      userStatus: "active",
      emailVerified: true,
    });
    expect(admin.uniqueId).toMatch(/^ESRT-[0-9A-HJKMNP-TV-Z]{8}$/);
    expect(admin.password).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(admin.password, "S3cret-enough!")).toBe(true);

    expect(await db.prisma.brandingConfig.findFirst()).toMatchObject(DEFAULT_BRANDING);
    expect(await db.prisma.securitySettings.findUnique({ where: { id: 1 } })).toMatchObject({
      requireVerifiedEmail: true,
      revealUnknownAccounts: false,
    });
    expect(await db.prisma.storageConfig.findFirst()).toMatchObject({
      storageType: "local",
      maxFileSize: 10_000_000n,
    });

    const second = await seed(db, cfg);
    expect(second).toEqual({
      admin: { id: admin.id, username: "boss", email: "boss@example.test", created: false },
      templatesCreated: [],
    });
    expect(await counts()).toEqual(after);
  });

  it("generates a strong admin password when none is configured, only on the run that creates the admin", async () => {
    const cfg = parseConfig({});
    const first = await seed(db, cfg);
    const generated = first.admin.generatedPassword ?? "";
    expect(generated).toMatch(/^(?=.*\d)(?=.*[!@#$%^&*=+_-]).{20}$/);
    const admin = await db.prisma.user.findUniqueOrThrow({ where: { id: first.admin.id } });
    expect(admin.username).toBe("admin");
    expect(await verifyPassword(admin.password, generated)).toBe(true);

    const second = await seed(db, cfg);
    expect(second.admin.created).toBe(false);
    expect(second.admin.generatedPassword).toBeUndefined();
  });

  it("keeps an admin's template edits and restores only templates that are missing", async () => {
    const cfg = parseConfig({ ADMIN_PASSWORD: "S3cret-enough!" });
    await seed(db, cfg);
    await db.prisma.emailTemplate.update({
      where: { key: "welcome" },
      data: { subject: "Hello from us, {{firstName}}", updatedBy: "admin" },
    });
    await db.prisma.emailTemplate.delete({ where: { key: "password_reset" } });

    const again = await seed(db, cfg);
    expect(again.templatesCreated).toEqual(["password_reset"]);
    const welcome = await db.prisma.emailTemplate.findUniqueOrThrow({ where: { key: "welcome" } });
    expect(welcome.subject).toBe("Hello from us, {{firstName}}");
    const reset = await db.prisma.emailTemplate.findUniqueOrThrow({ where: { key: "password_reset" } });
    expect(reset.html).toContain('href="{{link}}"');
    expect(reset.html).not.toContain("<div style="); // content only: the layout is added at render
    expect(await db.prisma.emailTemplate.count()).toBe(DEFAULT_EMAIL_TEMPLATES.length);
  });

  it("seeds once when two instances start at the same moment", async () => {
    const cfg = parseConfig({ ADMIN_PASSWORD: "S3cret-enough!" });
    const other = await connectPostgres(scratch.url);
    try {
      const [a, b] = await Promise.all([seed(db, cfg), seed(other, cfg)]);
      expect([a.admin.created, b.admin.created].sort()).toEqual([false, true]);
    } finally {
      await other.close();
    }
    expect(await counts()).toEqual(SEEDED_ONCE);
  });
});
