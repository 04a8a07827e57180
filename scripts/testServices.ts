import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { jetstreamManager } from "@nats-io/jetstream";
import { connect as connectNats } from "@nats-io/transport-node";
import { portAnswers } from "@services/shared/net";
import { Client } from "pg";
import { createClient } from "redis";

/** Where the tests find the machine's real backing services. */
export interface TestServices {
  databaseUrl: string;
  redisUrl: string;
  natsUrl: string;
}

const HINTS: Record<keyof TestServices, string> = {
  databaseUrl:
    "PostgreSQL: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start (or set TEST_DATABASE_URL)",
  redisUrl:
    'Redis: redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no (or set TEST_REDIS_URL)',
  natsUrl:
    "NATS: start-stop-daemon --start --oknodo --background --exec /usr/sbin/nats-server -- -a 127.0.0.1 -p 4222 -js -sd /var/lib/nats-server (or set TEST_NATS_URL)",
};

function reachable(url: string, defaultPort: number): Promise<boolean> {
  const u = new URL(url);
  return portAnswers(Number(u.port || defaultPort), u.hostname, 1500);
}

const PORTS: Record<keyof TestServices, number> = { databaseUrl: 5432, redisUrl: 6379, natsUrl: 4222 };

/** Whether a Docker engine answers (not merely a docker client on the PATH). */
export function dockerEngineAvailable(): boolean {
  const probe = spawnSync("docker", ["info", "--format", "{{.ServerVersion}}"], {
    timeout: 5000,
    encoding: "utf8",
  });
  return probe.status === 0 && probe.stdout.trim() !== "";
}

interface StartedContainer {
  stop(): Promise<unknown>;
}

// globalSetup and globalTeardown run in Jest's parent process: the containers are kept here.
const containers: StartedContainer[] = [];
const holder = globalThis as { __portalTestContainers?: StartedContainer[] };
holder.__portalTestContainers ??= containers;

/**
 * Starts the missing services in containers with testcontainers: the fallback for a machine that
 * has a Docker engine but none of the services running.
 */
async function startContainers(
  missing: (keyof TestServices)[],
  services: TestServices,
): Promise<TestServices> {
  const { GenericContainer, Wait } = await import("testcontainers");
  const started = { ...services };
  for (const key of missing) {
    if (key === "databaseUrl") {
      const { PostgreSqlContainer } = await import("@testcontainers/postgresql");
      const pg = await new PostgreSqlContainer("postgres:16-alpine").withDatabase("postgres").start();
      holder.__portalTestContainers?.push(pg);
      started.databaseUrl = pg.getConnectionUri();
    } else if (key === "redisUrl") {
      const { RedisContainer } = await import("@testcontainers/redis");
      const redis = await new RedisContainer("redis:7-alpine").start();
      holder.__portalTestContainers?.push(redis);
      started.redisUrl = redis.getConnectionUrl();
    } else {
      const nats = await new GenericContainer("nats:2-alpine")
        .withCommand(["-js"])
        .withExposedPorts(4222)
        .withWaitStrategy(Wait.forLogMessage(/Server is ready/))
        .start();
      holder.__portalTestContainers?.push(nats);
      started.natsUrl = `nats://${nats.getHost()}:${nats.getMappedPort(4222)}`;
    }
  }
  return started;
}

/**
 * The services the tests run against: TEST_* variables, else the machine's standard ports, else
 * (only where a Docker engine exists) containers started with testcontainers.
 * @throws Error naming every service that does not answer and how to start it. Tests never fall
 * back to an embedded stand-in.
 */
export async function requireTestServices(): Promise<TestServices> {
  const services: TestServices = {
    databaseUrl: process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres",
    redisUrl: process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379",
    natsUrl: process.env.TEST_NATS_URL ?? "nats://127.0.0.1:4222",
  };
  const keys = Object.keys(services) as (keyof TestServices)[];
  const answers = await Promise.all(keys.map((k) => reachable(services[k], PORTS[k])));
  const missing = keys.filter((_, i) => !answers[i]);
  if (missing.length === 0) return services;
  if (dockerEngineAvailable()) return startContainers(missing, services);
  throw new Error(
    `The tests need real backing services and these do not answer (and no Docker engine is available for testcontainers):\n${missing
      .map((k) => `  - ${services[k]} — start ${HINTS[k]}`)
      .join("\n")}`,
  );
}

/** Removes this run's database, Redis keys and JetStream streams (globalTeardown). */
export async function cleanupTestRun(): Promise<void> {
  const runId = process.env.TEST_RUN_ID;
  if (!runId) return;
  const errors: string[] = [];

  const dataDir = process.env.DATA_DIR;
  if (dataDir && path.basename(dataDir) === `portal_test_${runId}`) {
    rmSync(dataDir, { recursive: true, force: true });
  }

  const adminUrl = process.env.TEST_ADMIN_DATABASE_URL;
  if (adminUrl) {
    const client = new Client({ connectionString: adminUrl });
    try {
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "portal_test_${runId}" WITH (FORCE)`);
      // scratch databases made by tests of this run
      const { rows } = await client.query<{ datname: string }>(
        "SELECT datname FROM pg_database WHERE datname LIKE $1",
        [`portal_scratch_${runId}%`],
      );
      for (const row of rows) await client.query(`DROP DATABASE IF EXISTS "${row.datname}" WITH (FORCE)`);
    } catch (err) {
      errors.push(`database: ${(err as Error).message}`);
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  if (process.env.REDIS_URL) {
    const redis = createClient({ url: process.env.REDIS_URL });
    try {
      await redis.connect();
      for await (const keys of redis.scanIterator({ MATCH: `test:${runId}:*`, COUNT: 500 })) {
        if (keys.length > 0) await redis.del(keys);
      }
    } catch (err) {
      errors.push(`redis: ${(err as Error).message}`);
    } finally {
      await redis.quit().catch(() => undefined);
    }
  }

  if (process.env.NATS_URL) {
    try {
      const nc = await connectNats({ servers: process.env.NATS_URL, timeout: 3000 });
      const jsm = await jetstreamManager(nc);
      for await (const info of jsm.streams.list()) {
        if (info.config.name.includes(runId)) await jsm.streams.delete(info.config.name);
      }
      await nc.close();
    } catch (err) {
      errors.push(`nats: ${(err as Error).message}`);
    }
  }

  for (const container of holder.__portalTestContainers ?? []) {
    await container.stop().catch((err: unknown) => errors.push(`container: ${(err as Error).message}`));
  }

  if (errors.length > 0) process.stderr.write(`test cleanup incomplete: ${errors.join("; ")}\n`);
}
