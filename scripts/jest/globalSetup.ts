import "./aliases";
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { migrateDatabase } from "@db/migrate";
import { requireTestServices } from "../testServices";

/**
 * Gives this Jest run its own world: a fresh database (migrated), a Redis key prefix and JetStream
 * stream and subject names, and a data directory (uploads in progress, local document storage), so
 * that runs on one machine never collide. Refuses to start, naming the
 * missing service, when PostgreSQL, Redis or NATS does not answer: tests never fall back silently.
 */
export default async function globalSetup(): Promise<void> {
  const runId = `${Date.now().toString(36)}${randomBytes(3).toString("hex")}`;
  const services = await requireTestServices();

  const dbUrl = new URL(services.databaseUrl);
  dbUrl.pathname = `/portal_test_${runId}`;
  await migrateDatabase({ url: dbUrl.toString(), createIfMissing: true });

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
  });
}
