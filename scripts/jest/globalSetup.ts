import "./aliases";
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { migrateDatabase } from "@db/migrate";
import type { Config } from "jest";
import { Client } from "pg";
import { chromium } from "playwright-core";
import { CHROMIUM_PATH, LAUNCH_OPTIONS, SHARED_BROWSER_ENV } from "../../e2e/support/browser";
import { requireTestServices } from "../testServices";
import { startMakingInitdbTarball } from "./pgliteInitdb";

interface ProjectConfig {
  testPathIgnorePatterns?: string[];
}

/** Whether this run may include the browser tests (make test's first phase leaves e2e/ out). */
function runsBrowserTests(project: ProjectConfig | undefined): boolean {
  const ignored = project?.testPathIgnorePatterns ?? [];
  return !ignored.some((pattern) => new RegExp(pattern).test("/repo/e2e/x.test.ts"));
}

/** Whether the run is every test but e2e/ (make test's first phase) or every test. */
function runsEmbeddedTests(global: Config | undefined, project: ProjectConfig | undefined): boolean {
  const patterns = (global as { testPathPatterns?: unknown } | undefined)?.testPathPatterns;
  const list = Array.isArray(patterns)
    ? patterns
    : ((patterns as { patterns?: unknown[] } | undefined)?.patterns ?? []);
  return list.length === 0 || !runsBrowserTests(project);
}

const holder = globalThis as {
  __portalTestBrowser?: { close(): Promise<void> };
  __portalInitdb?: ChildProcess;
};

/**
 * Gives this Jest run its own world: a fresh database (migrated), a Redis key prefix and JetStream
 * stream and subject names, and a data directory (uploads in progress, local document storage), so
 * that runs on one machine never collide. Refuses to start, naming the
 * missing service, when PostgreSQL, Redis or NATS does not answer: tests never fall back silently.
 */
export default async function globalSetup(global?: Config, project?: ProjectConfig): Promise<void> {
  const runId = `${Date.now().toString(36)}${randomBytes(3).toString("hex")}`;
  const services = await requireTestServices();

  const dbUrl = new URL(services.databaseUrl);
  dbUrl.pathname = `/portal_test_${runId}`;
  await migrateDatabase({ url: dbUrl.toString(), createIfMissing: true });
  // A scratch database is thrown away at the end of the run: its commits need not wait for the disk.
  const admin = new Client({ connectionString: services.databaseUrl });
  await admin.connect();
  try {
    await admin.query(`ALTER DATABASE "portal_test_${runId}" SET synchronous_commit = off`);
  } finally {
    await admin.end();
  }

  const dataDir = path.join(tmpdir(), `portal_test_${runId}`);
  mkdirSync(dataDir, { recursive: true });

  Object.assign(process.env, {
    NODE_ENV: "test",
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent",
    TEST_RUN_ID: runId,
    DATABASE_URL: dbUrl.toString(),
    TEST_ADMIN_DATABASE_URL: services.databaseUrl,
    REDIS_URL: services.redisUrl,
    NATS_URL: services.natsUrl,
    REDIS_PREFIX: `test:${runId}:`,
    EVENT_STREAM: `PORTAL_T_${runId}`,
    SUBJECT_PREFIX: `t${runId}`,
    ESRT_STREAM: `ESRT_T_${runId}`,
    ESRT_SUBJECT_PREFIX: `esrt_t${runId}`,
    SESSION_SECRET: randomBytes(32).toString("hex"),
    DATA_DIR: dataDir,
    // The whole suite runs two workers, Chromium and their portals on two cores: Redis itself may
    // wait for the CPU past the product's 500 ms. The outage tests set the product's deadline.
    REDIS_TIMEOUT_MS: process.env.REDIS_TIMEOUT_MS ?? "2000",
  });

  // The embedded database's one initdb of the run, made in a child process while the first tests
  // run (scripts/jest/pgliteInitdbCache.ts); a test that needs it before it is written waits for it.
  if (runsEmbeddedTests(global, project)) holder.__portalInitdb = startMakingInitdbTarball();

  // One Chromium for the whole run: each browser test file connects to it (e2e/support/browser.ts)
  // instead of starting a browser of its own, and opens a new context for every test.
  if (runsBrowserTests(project) && !process.env[SHARED_BROWSER_ENV] && existsSync(CHROMIUM_PATH)) {
    const server = await chromium.launchServer(LAUNCH_OPTIONS);
    holder.__portalTestBrowser = server;
    process.env[SHARED_BROWSER_ENV] = server.wsEndpoint();
  }
}
