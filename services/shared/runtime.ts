import { migrateDatabase } from "@db/migrate";
import type { NatsConnection } from "@nats-io/transport-node";
import session from "express-session";
import { type Config, config, resolveDeploymentNames, setConfig } from "./config";
import { connectPostgres, type Db, openEmbedded } from "./db";
import { deploymentOf, NEW_DEPLOYMENT_ID_SQL } from "./deployment";
import { type Consumer, startConsumers } from "./events/consumer";
import { jetStreamTransport } from "./events/jetstream";
import { memoryTransport } from "./events/memory";
import { startRelay } from "./events/relay";
import type { EventTransport } from "./events/transport";
import { logger } from "./logger";
import { connectNats } from "./nats";
import { portAnswers, redactUrl } from "./net";
import { connectRedis, type RedisClient } from "./redis";
import { createSessionStore } from "./sessionStore";
import { withTimeout } from "./timeout";

/** How each backing service is provided. */
export interface Modes {
  database: "postgres" | "embedded";
  sessions: "redis" | "memory";
  events: "jetstream" | "in-process";
}

/** A readiness check of one backing service, with how that service is provided. */
export interface ServiceCheck {
  mode: string;
  check: () => Promise<void>;
}

/** How long each backing service's own readiness check may run (the handler bounds it too). */
const CHECK_TIMEOUT_MS = 400;

/** Everything a process of the portal runs on: the database, sessions, the bus and its workers. */
export interface Runtime {
  /**
   * The configuration in force: the one given, with the stream, subject prefix and Redis prefix left
   * unset derived from the deployment. Make it the process-wide one (setConfig) before serving.
   */
  config: Config;
  /** the deployment's id, from its database */
  deployment: string;
  db: Db;
  redis: RedisClient | undefined;
  sessionStore: session.Store;
  transport: EventTransport;
  modes: Modes;
  /** the checks behind /readyz: database, sessions and events, each with its mode */
  readiness: Record<"database" | "sessions" | "events", ServiceCheck>;
  /** pending messages per consumer (Prometheus consumer lag) */
  consumerLag(): Promise<Record<string, number>>;
  /** events of another deployment dropped per consumer since start (Prometheus) */
  droppedEvents(): Record<string, number>;
  /** stops the workers and the relay, then closes every connection */
  close(): Promise<void>;
}

export interface RuntimeOptions {
  /** Fall back to the embedded default where a service is neither configured nor reachable. */
  allowEmbedded: boolean;
  /** The consumers this process runs (per config().WORKERS). */
  consumers: Consumer[];
  /** Background work of those services (e.g. the email sender), started after the consumers. */
  workers?: ((props: { db: Db; nc?: NatsConnection }) => Promise<{ stop(): Promise<void> }>)[];
  /** Whether this process relays the outbox (config().RELAY). */
  relay: boolean;
}

/** Raised when a configured or required backing service cannot be reached. */
export class BackingServiceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BackingServiceError";
  }
}

const LOCAL = {
  database: { port: 5432, url: "postgresql://postgres@127.0.0.1:5432/portal" },
  redis: { port: 6379, url: "redis://127.0.0.1:6379" },
  nats: { port: 4222, url: "nats://127.0.0.1:4222" },
} as const;

/** Where one backing service comes from. */
export type Choice = { kind: "url"; url: string; configured: boolean } | { kind: "embedded" };

/** The choice for each backing service. */
export interface Choices {
  database: Choice;
  redis: Choice;
  nats: Choice;
}

/**
 * Decides where each backing service comes from: EMBEDDED=1 → embedded; a configured URL → that URL;
 * something answering on the standard local port → that; else embedded when allowed.
 * @throws BackingServiceError naming the service when nothing is found and embedded is not allowed.
 */
export async function chooseBacking(
  cfg: Config,
  allowEmbedded: boolean,
  probe: (port: number) => Promise<boolean> = portAnswers,
): Promise<Choices> {
  const choose = async (name: keyof typeof LOCAL, configured: string | undefined): Promise<Choice> => {
    if (cfg.EMBEDDED) {
      if (!allowEmbedded) {
        throw new BackingServiceError(`EMBEDDED=1 is only for \`make start\`; ${name} is required here`);
      }
      return { kind: "embedded" };
    }
    if (configured) return { kind: "url", url: configured, configured: true };
    if (await probe(LOCAL[name].port)) return { kind: "url", url: LOCAL[name].url, configured: false };
    if (allowEmbedded) return { kind: "embedded" };
    throw new BackingServiceError(
      `${name}: nothing is configured and nothing answers on 127.0.0.1:${LOCAL[name].port}`,
    );
  };
  const [database, redis, nats] = await Promise.all([
    choose("database", cfg.DATABASE_URL),
    choose("redis", cfg.REDIS_URL),
    choose("nats", cfg.NATS_URL),
  ]);
  return { database, redis, nats };
}

/**
 * Connects this process to its backing services, per service: the configured URL; else the standard
 * local port when something answers there; else, when `allowEmbedded`, the embedded default (PGlite
 * under DATA_DIR, in-memory sessions, the in-process bus). Reads the deployment's id from the
 * database and derives from it the stream, subject prefix and Redis prefix the configuration leaves
 * unset (`runtime.config`). Starts the outbox relay and the given consumers, and logs the mode of
 * each service and the names in use.
 * @throws BackingServiceError when a configured service does not answer, or none is found and the
 * embedded default is not allowed; ConfigError-like errors from migrations pass through.
 */
export async function startRuntime(given: Config, options: RuntimeOptions): Promise<Runtime> {
  const log = logger("runtime");
  const closers: (() => Promise<void>)[] = [];
  const closeAll = async () => {
    for (const close of closers.reverse()) await close().catch((err) => log.warn({ err }, "close failed"));
  };

  try {
    const choices = await chooseBacking(given, options.allowEmbedded);
    const { database: dbChoice, redis: redisChoice, nats: natsChoice } = choices;

    // Database (migrated before use; the embedded one migrates itself on open)
    let db: Db;
    if (dbChoice.kind === "url") {
      try {
        const { applied } = await migrateDatabase({ url: dbChoice.url, createIfMissing: true });
        if (applied.length > 0) log.info({ applied }, "applied migrations");
        db = await connectPostgres(dbChoice.url);
      } catch (err) {
        throw new BackingServiceError(
          `PostgreSQL at ${redactUrl(dbChoice.url)} failed: ${(err as Error).message}${dbChoice.configured ? " (from DATABASE_URL)" : ""}`,
        );
      }
    } else {
      db = await openEmbedded(given.DATA_DIR);
    }
    closers.push(() => db.close());

    // The deployment: names left unset derive from its id
    const deployment = await deploymentOf(db);
    if (db.mode === "postgres" && deployment.databaseName !== deployment.currentDatabase) {
      log.warn(
        { deployment: deployment.id, madeIn: deployment.databaseName, now: deployment.currentDatabase },
        `this database was made as "${deployment.databaseName}" and is now "${deployment.currentDatabase}": ` +
          `if it is a copy of another portal's database, give it an id of its own before it shares NATS ` +
          `or Redis with that portal: ${NEW_DEPLOYMENT_ID_SQL}`,
      );
    }
    // The Pro-app sync publishes on NATS only where the bus is NATS (ESRT_NATS is off by itself on the
    // in-process bus). The process-wide configuration follows at once when it is the one given, as
    // this process's consumers read it before the caller applies the runtime's configuration.
    const cfg = {
      ...resolveDeploymentNames(given, deployment.id),
      ESRT_NATS: given.ESRT_NATS && natsChoice.kind === "url",
    };
    if (config() === given && cfg.ESRT_NATS !== given.ESRT_NATS)
      setConfig({ ...given, ESRT_NATS: cfg.ESRT_NATS });

    // Sessions
    let redis: RedisClient | undefined;
    let sessionStore: session.Store;
    if (redisChoice.kind === "url") {
      try {
        redis = await connectRedis(redisChoice.url);
      } catch (err) {
        throw new BackingServiceError(
          `Redis at ${redactUrl(redisChoice.url)} failed: ${(err as Error).message}`,
        );
      }
      const client = redis;
      closers.push(async () => {
        if (client.isOpen) await client.quit();
      });
      sessionStore = createSessionStore({
        redis: client,
        prefix: cfg.REDIS_PREFIX,
        deployment: deployment.id,
      });
    } else {
      sessionStore = createSessionStore({ prefix: cfg.REDIS_PREFIX });
    }

    // Events
    let transport: EventTransport;
    let nc: NatsConnection | undefined;
    if (natsChoice.kind === "url") {
      try {
        nc = await connectNats(natsChoice.url);
        transport = await jetStreamTransport({
          nc,
          stream: cfg.EVENT_STREAM,
          subjectPrefix: cfg.SUBJECT_PREFIX,
          ackWaitMs: cfg.EVENT_ACK_WAIT_MS,
        });
      } catch (err) {
        throw new BackingServiceError(
          `NATS at ${redactUrl(natsChoice.url)} failed: ${(err as Error).message}`,
        );
      }
      const conn = nc;
      closers.push(async () => {
        await conn.drain().catch(() => conn.close());
      });
    } else {
      transport = memoryTransport();
    }
    closers.push(() => transport.close());

    const modes: Modes = {
      database: db.mode,
      sessions: redis ? "redis" : "memory",
      events: nc ? "jetstream" : "in-process",
    };
    log.info(
      {
        database:
          dbChoice.kind === "url" ? redactUrl(dbChoice.url) : `embedded PGlite in ${cfg.DATA_DIR}/pglite`,
        sessions: redisChoice.kind === "url" ? redactUrl(redisChoice.url) : "in memory",
        events: natsChoice.kind === "url" ? redactUrl(natsChoice.url) : "in-process bus",
        deployment: deployment.id,
        ...(redis ? { redisPrefix: cfg.REDIS_PREFIX } : {}),
        ...(nc ? { stream: cfg.EVENT_STREAM, subjectPrefix: cfg.SUBJECT_PREFIX } : {}),
      },
      `backing services: database=${modes.database} sessions=${modes.sessions} events=${modes.events}`,
    );

    if (options.relay) {
      // The in-process bus keeps nothing across restarts: publish the last day's events again and let
      // the consumers' inboxes drop what they had already applied.
      const relay = await startRelay({
        db,
        transport,
        republishSince: nc ? undefined : new Date(Date.now() - 24 * 3_600_000),
        subjectPrefix: cfg.SUBJECT_PREFIX,
        deployment: deployment.id,
      });
      closers.push(() => relay.stop());
    }
    const workers =
      options.consumers.length > 0
        ? await startConsumers({
            db,
            transport,
            consumers: options.consumers,
            subjectPrefix: cfg.SUBJECT_PREFIX,
            deployment: deployment.id,
          })
        : undefined;
    if (workers) closers.push(() => workers.stop());
    for (const start of options.workers ?? []) {
      const worker = await start({ db, nc });
      closers.push(() => worker.stop());
    }

    const readiness: Runtime["readiness"] = {
      database: { mode: modes.database, check: () => db.ping(CHECK_TIMEOUT_MS) },
      sessions: {
        mode: modes.sessions,
        check: async () => {
          if (!redis) return;
          if (!redis.isReady) throw new Error("not connected");
          await withTimeout(redis.ping(), CHECK_TIMEOUT_MS, "Redis");
        },
      },
      events: {
        mode: modes.events,
        check: async () => {
          if (!nc) return;
          if (nc.isClosed()) throw new Error("connection closed");
          await withTimeout(nc.flush(), CHECK_TIMEOUT_MS, "NATS");
        },
      },
    };

    return {
      config: cfg,
      deployment: deployment.id,
      db,
      redis,
      sessionStore,
      transport,
      modes,
      readiness,
      consumerLag: async () => (workers ? workers.lag() : {}),
      droppedEvents: () => (workers ? workers.dropped() : {}),
      close: closeAll,
    };
  } catch (err) {
    await closeAll();
    throw err;
  }
}
