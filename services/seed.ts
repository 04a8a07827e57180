import { migrateDatabase } from "@db/migrate";
import { seedDocumentDefaults } from "@services/document";
import { seedEmailDefaults } from "@services/email";
import { type Config, config } from "@services/shared/config";
import { connectPostgres, type Db, openEmbedded } from "@services/shared/db";
import { logger } from "@services/shared/logger";
import { chooseBacking } from "@services/shared/runtime";
import { type SeededAdmin, seedUserDefaults } from "@services/user";
import { config as loadEnvFile } from "dotenv";

// The seed of a new portal (`make db-seed`, and the gateway at start): each service seeds its own
// defaults (seedUserDefaults, seedDocumentDefaults, seedEmailDefaults, from their faces), here run in
// one transaction under an advisory lock. Idempotent: running it again changes nothing, and never
// overwrites what an admin edited.

/** What one seed run did. */
export interface SeedResult {
  admin: SeededAdmin;
  /** keys of the email templates this run inserted */
  templatesCreated: string[];
}

/** Serialises concurrent seeds (two instances starting at once). */
const SEED_LOCK_KEY = 72707370;

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
      // each service seeds its own tables, in the order the rows were always written
      const admin = await seedUserDefaults(tx, cfg);
      await seedDocumentDefaults(tx);
      const templatesCreated = await seedEmailDefaults(tx, cfg);
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
