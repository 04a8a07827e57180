import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { migrateDatabase } from "@db/migrate";
import { createApp } from "@gateway/app";
import { jetstreamManager } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/transport-node";
import { type Config, parseConfig, setConfig } from "@services/shared/config";
import { connectPostgres, type Db } from "@services/shared/db";
import { connectRedis } from "@services/shared/redis";
import { createSessionStore } from "@services/shared/sessionStore";
import { listenOnLoopback } from "@services/shared/testing/loopback";
import { Client } from "pg";
import { requireTestServices, type TestServices } from "../scripts/testServices";

// Shared helpers of the benchmarks: result types, isolation (scratch database, own stream and
// subject prefix) and statistics. Benchmarks run against the machine's real PostgreSQL, Redis and
// NATS, found the way the tests find them (TEST_* variables, else the standard ports).

/** One measured figure. */
export interface Metric {
  name: string;
  unit: string;
  value: number;
}

/** One measured situation of a benchmark (e.g. one transport, one endpoint). */
export interface Scenario {
  name: string;
  metrics: Metric[];
}

/** What a benchmark's `run()` returns. */
export interface BenchReport {
  name: string;
  /** what was measured and how, in a few words (shown under the table) */
  notes: string[];
  scenarios: Scenario[];
}

/** A short random suffix shared by a benchmark's database, stream, subject prefix and key prefix. */
export function benchId(): string {
  return randomBytes(4).toString("hex");
}

/**
 * The machine's backing services.
 * @throws Error naming each service that does not answer.
 */
export function benchServices(): Promise<TestServices> {
  return requireTestServices();
}

/** A migrated database of the benchmark's own. */
export interface ScratchDatabase {
  name: string;
  url: string;
  /** drops it WITH (FORCE), even while connections remain */
  drop(): Promise<void>;
}

function withDatabase(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Creates and migrates the database portal_bench_<id> on the server of `serverUrl`.
 * @throws when the server refuses to create it or a migration fails (it is then dropped).
 */
export async function scratchDatabase(serverUrl: string, id: string): Promise<ScratchDatabase> {
  const name = `portal_bench_${id}`;
  const url = withDatabase(serverUrl, name);
  const drop = async (): Promise<void> => {
    const client = new Client({
      connectionString: withDatabase(serverUrl, "postgres"),
      connectionTimeoutMillis: 5000,
    });
    await client.connect();
    try {
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    } finally {
      await client.end();
    }
  };
  try {
    await migrateDatabase({ url, createIfMissing: true });
  } catch (err) {
    await drop().catch(() => undefined);
    throw err;
  }
  return { name, url, drop };
}

/**
 * Makes the process-wide configuration this benchmark's: the environment with its own stream,
 * subject prefix and whatever else is given. Returns it.
 * @throws ConfigError when the environment holds an invalid value.
 */
export function applyBenchConfig(overrides: Record<string, string>): Config {
  const cfg = parseConfig({ ...process.env, ...overrides });
  setConfig(cfg);
  return cfg;
}

/** Stream name and subject prefix of a benchmark's own. */
export function benchBus(id: string): { stream: string; prefix: string } {
  return { stream: `PORTAL_BENCH_${id}`, prefix: `bench${id}` };
}

/** Deletes a JetStream stream; a missing stream is not an error. */
export async function deleteStream(nc: NatsConnection, stream: string): Promise<void> {
  const jsm = await jetstreamManager(nc);
  await jsm.streams.delete(stream).catch(() => undefined);
}

/** Removes every message from a JetStream stream (a new durable then starts from nothing). */
export async function purgeStream(nc: NatsConnection, stream: string): Promise<void> {
  const jsm = await jetstreamManager(nc);
  await jsm.streams.purge(stream);
}

/** The value at quantile `q` (0..1) of ascending `sorted` values, nearest rank; NaN when empty. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)));
  return sorted[rank - 1] ?? Number.NaN;
}

/** p50, p95, p99 and max of some samples (ms), as metrics named `${prefix} p50`... */
export function latencyMetrics(prefix: string, samples: readonly number[]): Metric[] {
  const sorted = [...samples].sort((a, b) => a - b);
  return [
    { name: `${prefix} p50`, unit: "ms", value: quantile(sorted, 0.5) },
    { name: `${prefix} p95`, unit: "ms", value: quantile(sorted, 0.95) },
    { name: `${prefix} p99`, unit: "ms", value: quantile(sorted, 0.99) },
    { name: `${prefix} max`, unit: "ms", value: sorted[sorted.length - 1] ?? Number.NaN },
  ];
}

/** Resident set size of the process, in MiB. */
export function rssMiB(): number {
  return process.memoryUsage.rss() / (1024 * 1024);
}

/** The resident set of process `pid` (VmRSS of /proc/<pid>/status), in MiB. */
export function processRssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? Number.NaN);
  return kib / 1024;
}

/** Samples process `pid`'s RSS every `everyMs` until stopped; `stop()` returns the peak (MiB). */
export function processRssPeak(pid: number, everyMs = 50): { stop(): number } {
  let peak = processRssMiB(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, processRssMiB(pid));
  }, everyMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, processRssMiB(pid));
    },
  };
}

/** Samples the RSS every `everyMs` until stopped; `stop()` returns the peak seen (MiB). */
export function rssPeak(everyMs = 50): { stop(): number } {
  let peak = rssMiB();
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMiB());
  }, everyMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, rssMiB());
    },
  };
}

/**
 * Resolves once `check` holds, polling every 10 ms; with `refresh`, awaits it before each check
 * (reading what the check looks at from another process, say) and polls every 50 ms.
 * @throws Error naming `what()` after `timeoutMs`.
 */
export async function waitUntil(
  check: () => boolean,
  what: () => string,
  timeoutMs: number,
  refresh?: () => Promise<void>,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await refresh?.();
    if (check()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, refresh ? 50 : 10));
  }
}

/** Clean-up steps registered as resources are acquired, run last-first. */
export interface Teardown {
  /** registers a step; steps run in reverse order of registration */
  defer(what: string, step: () => Promise<unknown>): void;
  /**
   * Runs every step, even when an earlier one fails.
   * @throws AggregateError of the steps that failed.
   */
  run(): Promise<void>;
}

/** Creates an empty {@link Teardown}. */
export function teardown(): Teardown {
  const steps: Array<[string, () => Promise<unknown>]> = [];
  return {
    defer(what, step) {
      steps.push([what, step]);
    },
    async run() {
      const errors: Error[] = [];
      for (const [what, step] of steps.splice(0).reverse()) {
        try {
          await step();
        } catch (err) {
          errors.push(new Error(`${what}: ${err instanceof Error ? err.message : String(err)}`));
        }
      }
      if (errors.length > 0) throw new AggregateError(errors, errors.map((e) => e.message).join("; "));
    },
  };
}

/** A gateway of a benchmark's own, served in this process on its own database and key prefix. */
export interface InProcessGateway {
  base: string;
  db: Db;
  config: Config;
}

/**
 * Builds the gateway (createApp) on a scratch database, this run's Redis prefix and stream, serving
 * `webDist` when given, and listens on a free port; every step is undone by `cleanup`.
 * @throws when a backing service is missing or the app does not start.
 */
export async function startInProcessGateway(
  cleanup: Teardown,
  options: { webDist?: string; readiness?: (db: Db) => Record<string, () => Promise<void>> } = {},
): Promise<InProcessGateway> {
  const services = await benchServices();
  const id = benchId();
  const bus = benchBus(id);
  const redisPrefix = `bench:${id}:`;
  const database = await scratchDatabase(services.databaseUrl, id);
  cleanup.defer(`drop database ${database.name}`, () => database.drop());
  const config = applyBenchConfig({
    DATABASE_URL: database.url,
    REDIS_URL: services.redisUrl,
    NATS_URL: services.natsUrl,
    EVENT_STREAM: bus.stream,
    SUBJECT_PREFIX: bus.prefix,
    REDIS_PREFIX: redisPrefix,
  });
  const db = await connectPostgres(database.url);
  cleanup.defer("close database", () => db.close());
  const redis = await connectRedis(services.redisUrl);
  cleanup.defer("close Redis", () => redis.close());
  cleanup.defer(`delete Redis keys ${redisPrefix}*`, async () => {
    for await (const keys of redis.scanIterator({ MATCH: `${redisPrefix}*`, COUNT: 500 })) {
      if (keys.length > 0) await redis.del(keys);
    }
  });
  const gateway = await createApp({
    config,
    db,
    sessionStore: createSessionStore({ redis, prefix: redisPrefix }),
    redis,
    readiness: options.readiness?.(db) ?? {},
    webDist: options.webDist,
  });
  cleanup.defer("stop GraphQL server", () => gateway.stop());
  const server = await listenOnLoopback(gateway.app);
  cleanup.defer("close HTTP server", () => server.close());
  return { base: server.url, db, config };
}

/** What a benchmark run starts with: the backing services, a run id, its bus and an empty teardown. */
export interface BenchRun {
  services: TestServices;
  id: string;
  bus: { stream: string; prefix: string };
  cleanup: Teardown;
}

/**
 * Starts a benchmark run (see {@link BenchRun}).
 * @throws when a backing service is missing.
 */
export async function startBenchRun(): Promise<BenchRun> {
  const services = await benchServices();
  const id = benchId();
  return { services, id, bus: benchBus(id), cleanup: teardown() };
}

/**
 * A scratch database of the run's own, dropped when the run's teardown runs.
 * @throws when the server refuses to create it.
 */
export async function runDatabase(run: BenchRun): Promise<ScratchDatabase> {
  const database = await scratchDatabase(run.services.databaseUrl, run.id);
  run.cleanup.defer(`drop database ${database.name}`, () => database.drop());
  return database;
}
