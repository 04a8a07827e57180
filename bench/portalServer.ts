import { connectPostgres, type Db } from "@services/shared/db";
import { createUser, TEST_PASSWORD } from "@services/shared/testing/factories";
import { signInOverHttp } from "../e2e/support/http";
import { deployedNodeArgs, type ServerProcess, startServer } from "./load";
import { benchBus, benchId, benchServices, scratchDatabase, type Teardown } from "./support";

// The portal as the load benchmarks meet it, laid out as in production (docker-compose.yml): the
// gateway (gateway/src/main.ts, WORKERS=none, relaying the outbox) in a process of its own and the
// services' workers in another (services/worker.ts), in production mode, on a scratch database,
// their own Redis prefix and stream, their info logs going where a log shipper would take them.

/** A running portal and what a benchmark needs to talk to it. */
export interface BenchPortal {
  portal: ServerProcess;
  db: Db;
  /** the environment the portal runs with (for baselines that read the same data) */
  env: Record<string, string>;
  /** Creates an active, verified client and signs it in; answers its cookie header. */
  signedInClient(): Promise<{ cookie: string; username: string; id: number }>;
}

/**
 * Starts the portal for a benchmark; everything it starts is registered on `cleanup`. `extraEnv`
 * adds settings to both processes (e.g. DATA_DIR).
 * @throws when a backing service is missing or the portal does not start.
 */
export async function startBenchPortal(
  cleanup: Teardown,
  extraEnv: Record<string, string> = {},
): Promise<BenchPortal> {
  const services = await benchServices();
  const id = benchId();
  const scratch = await scratchDatabase(services.databaseUrl, id);
  cleanup.defer("drop the scratch database", () => scratch.drop());
  const bus = benchBus(id);
  const env: Record<string, string> = {
    NODE_ENV: "production",
    LOG_LEVEL: "info",
    DATABASE_URL: scratch.url,
    REDIS_URL: services.redisUrl,
    NATS_URL: services.natsUrl,
    REDIS_PREFIX: `bench:${id}:`,
    EVENT_STREAM: bus.stream,
    SUBJECT_PREFIX: bus.prefix,
    SESSION_SECRET: `bench-session-secret-${id}-0123456789abcdef`,
    PRO_APP_URL: "https://pro.esrt.example",
    ADMIN_EMAIL: `admin-${id}@bench.test`,
    ADMIN_PASSWORD: TEST_PASSWORD,
    ...extraEnv,
  };
  const portal = await startServer({
    name: "portal",
    script: "gateway/src/main.ts",
    env: { ...env, WORKERS: "none", RELAY: "1" },
    readyPath: "/readyz",
    nodeArgs: deployedNodeArgs(),
  });
  cleanup.defer("stop the portal", () => portal.stop());
  const workers = await startServer({
    name: "workers",
    script: "services/worker.ts",
    env: { ...env, WORKERS: "all", RELAY: "0" },
    readyLine: /worker started/,
    nodeArgs: deployedNodeArgs(),
  });
  cleanup.defer("stop the workers", () => workers.stop());
  const db = await connectPostgres(scratch.url);
  cleanup.defer("close the database", () => db.close());

  return {
    portal,
    db,
    env,
    async signedInClient() {
      const user = await createUser(db, { userType: "client" });
      const cookie = await signInOverHttp(portal.url, user.username);
      return { cookie, username: user.username, id: user.id };
    },
  };
}
