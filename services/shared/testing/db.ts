import { randomBytes } from "node:crypto";
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
  const runId = process.env.TEST_RUN_ID ?? "local";
  const name = `portal_scratch_${runId}_${randomBytes(4).toString("hex")}`;
  const admin = adminUrl();
  const client = new Client({ connectionString: admin, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}"`);
    // thrown away after the test: its commits need not wait for the disk
    await client.query(`ALTER DATABASE "${name}" SET synchronous_commit = off`);
  } finally {
    await client.end();
  }
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new Client({ connectionString: admin, connectionTimeoutMillis: 5000 });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
