import { randomInt } from "node:crypto";
import { type Config, config } from "@services/shared/config";
import { connectPostgres, type Db, openEmbedded, type Tx } from "@services/shared/db";
import { logger } from "@services/shared/logger";
import { chooseBacking } from "@services/shared/runtime";
import { generateUniqueId, hashPassword } from "@services/user";
import { config as loadEnvFile } from "dotenv";
import { DEFAULT_EMAIL_TEMPLATES } from "./emailTemplates";
import { migrateDatabase } from "./migrate";

// Idempotent: running it again changes nothing, and never overwrites what an admin edited.

/** The branding a new portal starts with. */
export const DEFAULT_BRANDING = {
  title: "ESRT",
  logoUrl: "/logo.svg",
  supportPhone: "(555) 010-0100",
  consultationEmail: "consultations@portal.localhost",
  businessHours: "9AM-5PM PST",
} as const;

/** What one seed run did. */
export interface SeedResult {
  admin: {
    id: number;
    username: string;
    email: string;
    /** true when this run created the first mainAdmin */
    created: boolean;
    /** only when this run created the admin without ADMIN_PASSWORD; it is also logged once */
    generatedPassword?: string;
  };
  /** keys of the email templates this run inserted */
  templatesCreated: string[];
}

/** Serialises concurrent seeds (two instances starting at once). */
const SEED_LOCK_KEY = 72707370;

const PASSWORD_LETTERS = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
const PASSWORD_SPECIALS = "!@#$%^&*-_=+";

/** A random 20-character password with letters, a digit and a special character. */
export function generatePassword(): string {
  const chars = Array.from({ length: 18 }, () => PASSWORD_LETTERS[randomInt(PASSWORD_LETTERS.length)] ?? "a");
  chars.splice(randomInt(chars.length + 1), 0, String(randomInt(10)));
  chars.splice(randomInt(chars.length + 1), 0, PASSWORD_SPECIALS[randomInt(PASSWORD_SPECIALS.length)] ?? "!");
  return chars.join("");
}

async function seedSettings(tx: Tx, cfg: Config): Promise<void> {
  if ((await tx.brandingConfig.count()) === 0) {
    await tx.brandingConfig.create({ data: { ...DEFAULT_BRANDING, updatedBy: "seed" } });
  }
  if ((await tx.storageConfig.count()) === 0) {
    await tx.storageConfig.create({ data: { updatedBy: "seed" } });
  }
  await tx.securitySettings.upsert({ where: { id: 1 }, create: { id: 1, updatedBy: "seed" }, update: {} });
  await tx.emailSettings.upsert({
    where: { id: 1 },
    create: { id: 1, updatedBy: "seed", ...(cfg.TEAM_EMAIL ? { teamAddress: cfg.TEAM_EMAIL } : {}) },
    update: {},
  });
}

async function seedTemplates(tx: Tx): Promise<string[]> {
  const existing = new Set((await tx.emailTemplate.findMany({ select: { key: true } })).map((t) => t.key));
  const missing = DEFAULT_EMAIL_TEMPLATES.filter((t) => !existing.has(t.key));
  if (missing.length > 0) {
    await tx.emailTemplate.createMany({
      data: missing.map((t) => ({ ...t, updatedBy: "seed" })),
      skipDuplicates: true,
    });
  }
  return missing.map((t) => t.key);
}

async function seedAdmin(tx: Tx, cfg: Config): Promise<SeedResult["admin"]> {
  const existing = await tx.user.findFirst({ where: { userType: "mainAdmin" }, orderBy: { id: "asc" } });
  if (existing) {
    return { id: existing.id, username: existing.username, email: existing.email, created: false };
  }
  const generatedPassword = cfg.ADMIN_PASSWORD ? undefined : generatePassword();
  const password = cfg.ADMIN_PASSWORD ?? generatedPassword ?? "";
  const email = (cfg.ADMIN_EMAIL ?? "admin@portal.localhost").toLowerCase();
  const admin = await tx.user.create({
    data: {
      uniqueId: generateUniqueId(),
      username: cfg.ADMIN_USERNAME,
      email,
      password: await hashPassword(password),
      firstName: "Portal",
      lastName: "Administrator",
      userType: "mainAdmin",
      accessLevel: "full",
      emailVerified: true,
    },
  });
  return { id: admin.id, username: admin.username, email: admin.email, created: true, generatedPassword };
}

/**
 * Puts the rows a new portal needs in place: branding, storage, security and email settings, the
 * default email templates (only those missing) and a first mainAdmin (only when none exists; from
 * ADMIN_EMAIL/ADMIN_PASSWORD, or with a generated password logged once). When the admin already
 * exists it logs how to set a new password (`make admin-password`).
 * @throws when the database refuses a write (for example the admin's username or email is taken
 * by a user who is not a mainAdmin).
 */
export async function seed(db: Db, cfg: Config): Promise<SeedResult> {
  const result = await db.prisma.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${SEED_LOCK_KEY})`;
      await seedSettings(tx, cfg);
      const templatesCreated = await seedTemplates(tx);
      const admin = await seedAdmin(tx, cfg);
      return { admin, templatesCreated };
    },
    { timeout: 30_000, maxWait: 30_000 },
  );
  const log = logger("seed");
  if (result.admin.created) {
    if (result.admin.generatedPassword) {
      log.warn(
        `Created the first mainAdmin "${result.admin.username}" (${result.admin.email}) with the generated ` +
          `password ${result.admin.generatedPassword} — it is shown only this once: sign in and change it.`,
      );
    } else {
      log.info({ username: result.admin.username, email: result.admin.email }, "created the first mainAdmin");
    }
  } else {
    log.info(
      `mainAdmin "${result.admin.username}" (${result.admin.email}) exists. To set a new password: ` +
        "`make admin-password` prints a generated one, `ADMIN_PASSWORD=... make admin-password` sets yours.",
    );
  }
  if (result.templatesCreated.length > 0) {
    log.info({ templates: result.templatesCreated }, "inserted default email templates");
  }
  return result;
}

async function main(): Promise<void> {
  loadEnvFile({ quiet: true });
  const cfg = config();
  // the database `make start` uses: DATABASE_URL, else the local port, else the embedded one
  const { database } = await chooseBacking(cfg, true);
  let db: Db;
  if (database.kind === "url") {
    await migrateDatabase({ url: database.url, createIfMissing: true });
    db = await connectPostgres(database.url);
  } else {
    db = await openEmbedded(cfg.DATA_DIR);
  }
  try {
    const result = await seed(db, cfg);
    if (result.admin.generatedPassword && cfg.LOG_LEVEL === "silent") {
      process.stdout.write(
        `First mainAdmin ${result.admin.username}: password ${result.admin.generatedPassword}\n`,
      );
    }
  } finally {
    await db.close();
  }
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
