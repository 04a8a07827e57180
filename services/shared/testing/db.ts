import { createHash, randomBytes } from "node:crypto";
import { migrateDatabase, readMigrations } from "@db/migrate";
import { Client } from "pg";
import { connectPostgres, type Db } from "../db";

// Test database helpers. Jest's globalSetup (scripts/jest/globalSetup.ts) gives each run its own
// migrated database in DATABASE_URL; scratch databases are named portal_scratch_<runId>_* so that
// globalTeardown drops any a test left behind.

let shared: Promise<Db> | undefined;

/**
 * The test file's connection to this run's database (one per test file, closed after its tests).
 * @throws when DATABASE_URL is unset (the file was not started by Jest with the project's setup).
 */
export function testDb(): Promise<Db> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is unset: run the tests with `npx jest` from the repository root");
  shared ??= connectPostgres(url);
  return shared;
}

/** Closes the shared test connection (registered after every test file automatically). */
export async function closeTestDb(): Promise<void> {
  const current = shared;
  shared = undefined;
  if (current) await (await current).close();
}

// Importing this module from a test file registers the clean-up at the file's top level.
if (typeof afterAll === "function") afterAll(closeTestDb);

function adminUrl(): string {
  const url = process.env.TEST_ADMIN_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!url) throw new Error("TEST_ADMIN_DATABASE_URL is unset: run the tests with `npx jest`");
  return url;
}

/**
 * Creates a new, empty database (not migrated) on the test server, for tests that need to start
 * from nothing or break things. `drop()` removes it, even while connections remain.
 * @throws when the server refuses to create a database.
 */
export async function scratchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  return createScratch();
}

/** Makes a scratch database, empty or as a copy of `template` (a database nobody is connected to). */
async function createScratch(template?: string): Promise<{ url: string; drop(): Promise<void> }> {
  const runId = process.env.TEST_RUN_ID ?? "local";
  const name = `portal_scratch_${runId}_${randomBytes(4).toString("hex")}`;
  const admin = adminUrl();
  const client = new Client({ connectionString: admin, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ""}`);
    // thrown away after the test: its commits need not wait for the disk
    await client.query(`ALTER DATABASE "${name}" SET synchronous_commit = off`);
  } finally {
    await client.end();
  }
  return {
    url: databaseUrl(admin, name),
    async drop() {
      const c = new Client({ connectionString: admin, connectionTimeoutMillis: 5000 });
      await c.connect();
      try {
        if (process.env.TEST_RUN_ID) {
          // Inside a Jest run, whose globalTeardown drops every database named after the run: its
          // connections end now and the database goes at the end. A DROP DATABASE makes PostgreSQL
          // take an immediate checkpoint and wait for it; amid a run's writes that was up to 2 s of
          // a worker waiting on the disk, once per dropped database.
          await c.query(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
            [name],
          );
        } else {
          await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        }
      } finally {
        await c.end();
      }
    },
  };
}

function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The advisory lock (on the server's admin database) under which the run's template is made. */
const TEMPLATE_LOCK_KEY = 72707370;

/**
 * The run's migrated template: a database made and migrated once per run and set of migrations (by
 * the first test process that needs it, under an advisory lock; named like the run's scratch
 * databases, so globalTeardown drops it) that nobody connects to, so that a migrated database is a
 * copy of it (CREATE DATABASE ... TEMPLATE, a fraction of a second) instead of every migration run
 * again.
 * @throws when the server refuses to create or migrate it.
 */
async function migratedTemplate(): Promise<string> {
  const migrations = createHash("sha256")
    .update(
      readMigrations()
        .map((m) => `${m.name}:${m.checksum}`)
        .join("\n"),
    )
    .digest("hex")
    .slice(0, 8);
  const name = `portal_scratch_${process.env.TEST_RUN_ID ?? "local"}_template_${migrations}`;
  const admin = adminUrl();
  const client = new Client({ connectionString: admin, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [TEMPLATE_LOCK_KEY]);
    try {
      const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
      if (found.rowCount === 0) {
        // made under another name and renamed once migrated: a process that dies half-way leaves
        // no half-migrated template behind
        const building = `${name}_${randomBytes(4).toString("hex")}`;
        await client.query(`CREATE DATABASE "${building}"`);
        await migrateDatabase({ url: databaseUrl(admin, building) });
        await client.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
      }
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [TEMPLATE_LOCK_KEY]);
    }
  } finally {
    await client.end();
  }
  return name;
}

/**
 * A new database on the test server with every migration applied (a copy of the run's migrated
 * template), without a connection. `drop()` removes it, even while connections remain.
 * @throws when the server refuses to create the database or the template.
 */
export async function migratedScratchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  return createScratch(await migratedTemplate());
}

/** A migrated database of a test's own, its connection, and how to remove both. */
export interface IsolatedDb {
  db: Db;
  url: string;
  /** closes the connection and drops the database */
  drop(): Promise<void>;
}

/**
 * A migrated scratch database with a connection to it, for tests that must not share the run's
 * database (they change settings every test reads, claim every outbox row, or start from nothing).
 * @throws when the test server refuses to create or migrate the database.
 */
export async function isolatedDb(): Promise<IsolatedDb> {
  const scratch = await migratedScratchDatabase();
  const db = await connectPostgres(scratch.url);
  return {
    db,
    url: scratch.url,
    async drop() {
      await db.close();
      await scratch.drop();
    },
  };
}

/**
 * Gives a test file (or the describe block it is called in) an isolated database: one for all its
 * tests, or a fresh one for each. Read `db` and `url` inside hooks and tests, after it is made.
 * @throws Error when read before the database is made.
 */
export function registerIsolatedDb(scope: "all" | "each" = "all"): { readonly db: Db; readonly url: string } {
  let current: IsolatedDb | undefined;
  const [before, after] = scope === "all" ? [beforeAll, afterAll] : [beforeEach, afterEach];
  before(async () => {
    current = await isolatedDb();
  });
  after(() => current?.drop());
  const made = (): IsolatedDb => {
    if (!current) throw new Error("the isolated database is not made yet: read it inside a hook or a test");
    return current;
  };
  return {
    get db() {
      return made().db;
    },
    get url() {
      return made().url;
    },
  };
}

/**
 * `db` with the calls of one Prisma delegate counted (`model`, e.g. "user"): each call of one of its
 * methods (findMany, findUnique, ...) is pushed to `calls` by name. For tests that a list reads
 * another service's rows once per list, never once per row. Transactions opened on the returned
 * db are not counted.
 */
export function countingModelCalls(db: Db, model: string): { db: Db; calls: string[] } {
  const calls: string[] = [];
  const delegate: object = Reflect.get(db.prisma, model);
  const counted = new Proxy(delegate, {
    get(target, method) {
      const value: unknown = Reflect.get(target, method);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        calls.push(String(method));
        return Reflect.apply(value, target, args);
      };
    },
  });
  const prisma = new Proxy(db.prisma, {
    get(target, prop) {
      if (prop === model) return counted;
      const value: unknown = Reflect.get(target, prop);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { db: { ...db, prisma }, calls };
}
