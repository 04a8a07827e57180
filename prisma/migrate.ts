import { createHash, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Extensions, PGlite } from "@electric-sql/pglite";
import { config } from "@services/shared/config";
import { logger } from "@services/shared/logger";
import { config as loadEnvFile } from "dotenv";
import { Client } from "pg";

// Applies the SQL migrations in prisma/migrations (Prisma's folder layout) and records them in
// `_prisma_migrations` exactly as `prisma migrate deploy` would. Prisma's own migration engine is a
// native binary these machines cannot download (DECISIONS.md, Stack notes).

/** Where the migration folders live. */
export const MIGRATIONS_DIR = path.join(__dirname, "migrations");

/** The advisory lock key; the same one Prisma's migrate engine takes, so the two never overlap. */
const LOCK_KEY = 72707369;

const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export type MigrationTarget = { url: string; createIfMissing?: boolean } | { pglite: PGlite };

/** One migration folder on disk. */
export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

/** Raised when the database and the migration folders disagree in a way that needs a person. */
export class MigrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MigrationError";
  }
}

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | string | null;
  rolled_back_at: Date | string | null;
}

/** The few operations the migrator needs, over pg or PGlite. */
interface Runner {
  rows<T>(sql: string, params?: unknown[]): Promise<T[]>;
  /** runs `sql` (several statements allowed) and then `after` in one transaction */
  transaction(sql: string, before: [string, unknown[]], after: [string, unknown[]]): Promise<void>;
}

/**
 * Reads the migration folders in name order, with their checksums (sha256 hex of migration.sql).
 * @throws when the migrations directory cannot be read.
 */
export function readMigrations(dir: string = MIGRATIONS_DIR): MigrationFile[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(dir, entry.name, "migration.sql")))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const bytes = readFileSync(path.join(dir, name, "migration.sql"));
      return {
        name,
        sql: bytes.toString("utf8"),
        checksum: createHash("sha256").update(bytes).digest("hex"),
      };
    });
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

async function createDatabaseIfMissing(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ""));
  if (!name) throw new MigrationError(`The database URL names no database: ${target.host}`);
  const maintenance = new URL(url);
  maintenance.pathname = "/postgres";
  const client = new Client({ connectionString: maintenance.toString(), connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (found.rowCount) return;
    try {
      await client.query(`CREATE DATABASE ${quoteIdent(name)}`);
    } catch (err) {
      // Another instance created it between our check and our CREATE: that is fine.
      const code = (err as { code?: string }).code;
      if (code !== "42P04" && code !== "23505") throw err;
    }
  } finally {
    await client.end();
  }
}

async function applyPending(runner: Runner, migrations: MigrationFile[]): Promise<string[]> {
  await runner.rows(CREATE_MIGRATIONS_TABLE);
  const rows = await runner.rows<AppliedRow>(
    `SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations" ORDER BY started_at`,
  );
  const live = rows.filter((row) => row.rolled_back_at === null);
  const failed = live.filter((row) => row.finished_at === null);
  if (failed.length > 0) {
    throw new MigrationError(
      `Migration ${failed.map((r) => r.migration_name).join(", ")} started but never finished. ` +
        "Repair the database by hand, then mark the row in _prisma_migrations as rolled back.",
    );
  }
  const applied = new Map(live.map((row) => [row.migration_name, row.checksum]));
  for (const migration of migrations) {
    const recorded = applied.get(migration.name);
    if (recorded !== undefined && recorded !== migration.checksum) {
      throw new MigrationError(
        `Migration ${migration.name} was changed after it was applied (checksum ${recorded} in the database, ` +
          `${migration.checksum} on disk). Never edit an applied migration: add a new one instead.`,
      );
    }
  }

  const done: string[] = [];
  for (const migration of migrations) {
    if (applied.has(migration.name)) continue;
    const id = randomUUID();
    try {
      await runner.transaction(
        migration.sql,
        [
          `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at) VALUES ($1, $2, $3, now())`,
          [id, migration.checksum, migration.name],
        ],
        [`UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1`, [id]],
      );
    } catch (err) {
      throw new MigrationError(
        `Migration ${migration.name} failed and was rolled back: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    done.push(migration.name);
  }
  return done;
}

function pgRunner(client: Client): Runner {
  return {
    async rows<T>(sql: string, params?: unknown[]) {
      const result = await client.query(sql, params);
      return result.rows as T[];
    },
    async transaction(sql, before, after) {
      await client.query("BEGIN");
      try {
        await client.query(before[0], before[1]);
        await client.query(sql);
        await client.query(after[0], after[1]);
        await client.query("COMMIT");
      } catch (err) {
        await client.query("ROLLBACK");
        throw err;
      }
    },
  };
}

function pgliteRunner(pglite: PGlite): Runner {
  return {
    async rows<T>(sql: string, params?: unknown[]) {
      const result = await pglite.query<T>(sql, params);
      return result.rows;
    },
    async transaction(sql, before, after) {
      await pglite.transaction(async (tx) => {
        await tx.query(before[0], before[1]);
        await tx.exec(sql);
        await tx.query(after[0], after[1]);
      });
    },
  };
}

/**
 * Brings a database up to date with prisma/migrations: creates it when asked and missing, takes an
 * advisory lock so that instances starting together migrate once, and applies each pending
 * migration in its own transaction. Works on PostgreSQL (URL) and on PGlite (single connection, so
 * no lock is needed).
 * @throws MigrationError when an applied migration was edited, an earlier one failed half-way, or a
 * migration's SQL fails (that migration is rolled back); connection errors from pg as they are.
 */
export async function migrateDatabase(
  target: MigrationTarget,
  migrations: MigrationFile[] = readMigrations(),
): Promise<{ applied: string[] }> {
  if ("pglite" in target) {
    return { applied: await applyPending(pgliteRunner(target.pglite), migrations) };
  }
  if (target.createIfMissing) await createDatabaseIfMissing(target.url);
  const client = new Client({ connectionString: target.url, connectionTimeoutMillis: 5000 });
  client.on("error", () => {
    // A dropped connection surfaces as a failed query below; this keeps it from crashing the process.
  });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [LOCK_KEY]);
    try {
      return { applied: await applyPending(pgRunner(client), migrations) };
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [LOCK_KEY]);
    }
  } finally {
    await client.end();
  }
}

/**
 * PGlite's module, loaded on demand. (Its type as this CommonJS module's static import sees it: the
 * dynamic import's own would be the ESM build's, a distinct class to TypeScript.)
 */
export async function loadPGlite(): Promise<typeof import("@electric-sql/pglite")> {
  return (await import("@electric-sql/pglite")) as unknown as typeof import("@electric-sql/pglite");
}

/**
 * The PostgreSQL extensions the migrations create (the user search's pg_trgm and unaccent), for
 * PGlite. Loaded on demand, as PGlite itself is: a process on a PostgreSQL server never loads them.
 */
export async function pgliteExtensions(): Promise<Extensions> {
  const [{ pg_trgm }, { unaccent }] = await Promise.all([
    import("@electric-sql/pglite/contrib/pg_trgm"),
    import("@electric-sql/pglite/contrib/unaccent"),
  ]);
  return { pg_trgm, unaccent };
}

async function main(): Promise<void> {
  loadEnvFile({ quiet: true });
  const cfg = config();
  const log = logger("migrate");
  if (cfg.DATABASE_URL && !cfg.EMBEDDED) {
    const { applied } = await migrateDatabase({ url: cfg.DATABASE_URL, createIfMissing: true });
    log.info(
      { applied },
      applied.length ? `applied ${applied.length} migration(s)` : "database is up to date",
    );
    return;
  }
  const dataDir = path.join(cfg.DATA_DIR, "pglite");
  mkdirSync(dataDir, { recursive: true });
  const { PGlite } = await loadPGlite();
  const pglite = new PGlite(dataDir, { extensions: await pgliteExtensions() });
  try {
    const { applied } = await migrateDatabase({ pglite });
    log.info({ applied, dataDir }, applied.length ? `applied ${applied.length} migration(s)` : "up to date");
  } finally {
    await pglite.close();
  }
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
