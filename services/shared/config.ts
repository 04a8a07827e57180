import path from "node:path";
import { z } from "zod";

/**
 * The one typed configuration of the portal, read from the environment (and `.env`, loaded by the
 * entry points). Every variable is documented in `.env.example` and in the README.
 */

const bool = z
  .enum(["0", "1", "true", "false", "yes", "no", ""])
  .transform((v) => v === "1" || v === "true" || v === "yes");

const optionalUrl = (protocols: readonly string[]) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === "" ? undefined : v))
    .refine(
      (v) => {
        if (v === undefined) return true;
        try {
          return protocols.includes(new URL(v).protocol);
        } catch {
          return false;
        }
      },
      { message: `must be a URL starting with ${protocols.map((p) => `${p}//`).join(" or ")}` },
    );

const port = z.coerce.number().int().min(1).max(65535);

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  PORT: port.default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  PUBLIC_URL: optionalUrl(["http:", "https:"]),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  TRUST_PROXY: z.string().default("loopback"),

  DATABASE_URL: optionalUrl(["postgres:", "postgresql:"]),
  REDIS_URL: optionalUrl(["redis:", "rediss:"]),
  NATS_URL: optionalUrl(["nats:", "tls:", "ws:", "wss:"]),
  EMBEDDED: bool.default(false),
  DATA_DIR: z.string().min(1).default("./data"),

  SESSION_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  // Unset: derived from the deployment's id once its database is known (see deploymentNames).
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9:_-]*$/, "may only hold letters, digits, ':', '_' and '-'")
    .optional(),
  EVENT_STREAM: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, "may only hold letters, digits, '_' and '-'")
    .optional(),
  SUBJECT_PREFIX: z
    .string()
    .regex(/^[a-z0-9_-]+$/, "may only hold lower-case letters, digits, '_' and '-'")
    .optional(),

  PRO_APP_URL: optionalUrl(["http:", "https:"]).transform((v) => v ?? "https://pro.esrt.example"),

  SMTP_URL: optionalUrl(["smtp:", "smtps:"]),
  MAIL_FROM: z.string().optional(),
  TEAM_EMAIL: z.string().email().optional(),
  SMTP_POOL: bool.default(true),
  SMTP_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(50).default(5),
  SMTP_MAX_MESSAGES: z.coerce.number().int().min(1).max(10_000).default(100),
  EMAIL_SEND_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(10),
  /** how long a claimed email is its sender's: a sender that dies leaves it due again after this */
  EMAIL_LEASE_MS: z.coerce.number().int().min(1000).max(3_600_000).default(120_000),
  /**
   * "Test connection" of the email and storage settings may reach loopback and private addresses
   * (unset: only when NODE_ENV=development; services/shared/addressSafety.ts)
   */
  CONNECTION_TEST_ALLOW_PRIVATE: bool.optional(),
  /**
   * how long one Redis command (or a MULTI block) may wait for its answer before the request fails
   * fast with 503 (services/shared/redis.ts)
   */
  REDIS_TIMEOUT_MS: z.coerce.number().int().min(100).max(10_000).default(500),
  /**
   * whether a new database starts with two-factor sign-in required of administrators (issue 20;
   * unset: on in production, off in development and tests); /admin/security changes it afterwards
   */
  TWO_FACTOR_REQUIRED_FOR_ADMINS: bool.optional(),

  ADMIN_EMAIL: z.string().email().optional(),
  ADMIN_PASSWORD: z.string().min(8, "must be at least 8 characters").optional(),
  ADMIN_USERNAME: z.string().min(3).max(50).default("admin"),

  WORKERS: z
    .string()
    .regex(/^(all|none|[a-z-]+(,[a-z-]+)*)$/, "must be all, none or a comma-separated list of service names")
    .default("all"),
  RELAY: bool.default(true),
  /**
   * how long a JetStream delivery waits for its ack (kept alive while the handler works) before it
   * goes to another worker: the longest an event waits after its worker dies (docs/ARCHITECTURE.md)
   */
  EVENT_ACK_WAIT_MS: z.coerce.number().int().min(500).max(600_000).default(30_000),
  APPOINTMENT_SLOT_CAPACITY: z.coerce.number().int().min(1).max(20).default(1),
  APPOINTMENT_REMINDER_INTERVAL_MS: z.coerce.number().int().min(1000).max(3_600_000).default(60_000),
  /** how often the document service sweeps expired uploads and orphan stored objects */
  DOCUMENT_SWEEP_INTERVAL_MS: z.coerce.number().int().min(1000).max(86_400_000).default(3_600_000),

  // Pro-app sync (issue 10): the JetStream stream and subject prefix the Pro app subscribes to (its
  // contract, docs/asyncapi.yaml: not derived from the deployment; two portals on one NATS set them).
  ESRT_STREAM: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, "may only hold letters, digits, '_' and '-'")
    .default("ESRT"),
  ESRT_SUBJECT_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/, "must be NATS subject tokens joined by '.'")
    .default("esrt"),
  /** publish snapshots on NATS (when the portal's bus is NATS) */
  ESRT_NATS: bool.default(true),
  /** multiplies the webhook retry schedule (1: the Standard Webhooks schedule; tests compress it) */
  ESRT_RETRY_SCALE: z.coerce.number().positive().max(1).default(1),
  ESRT_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(15_000),
  /** how long a claimed delivery is its dispatcher's (unset: the webhook timeout plus 30 s) */
  ESRT_LEASE_MS: z.coerce.number().int().min(1000).max(3_600_000).optional(),
  /** webhook URLs may be http (unset: allowed only when NODE_ENV=development) */
  ESRT_ALLOW_HTTP: bool.optional(),
  /** webhook URLs may resolve to loopback or private addresses (unset: only in development) */
  ESRT_ALLOW_PRIVATE: bool.optional(),
  /** an endpoint failing without a success for this long is paused (default 5 days) */
  ESRT_PAUSE_AFTER_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .default(5 * 86_400_000),
  /** after a secret rotation the old secret signs too for this long (default 24 hours) */
  ESRT_SECRET_GRACE_MS: z.coerce.number().int().min(0).default(86_400_000),
  /** webhook deliveries in flight at once per sync worker */
  ESRT_DISPATCH_CONCURRENCY: z.coerce.number().int().min(1).max(200).default(16),
  /** users re-sent per second by "resync all" */
  ESRT_RESYNC_RATE: z.coerce.number().int().min(1).max(10_000).default(100),

  GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(1).max(50).default(10),
  GRAPHQL_MAX_ALIASES: z.coerce.number().int().min(1).max(100).default(15),
  GRAPHQL_MAX_COST: z.coerce.number().int().min(1).default(5000),
  /** the bearer token /metrics asks for (unset: open outside production, off in production) */
  METRICS_TOKEN: z.string().trim().min(16, "must be at least 16 characters").optional(),
  /**
   * where traces go, OTLP over HTTP (e.g. http://jaeger:4318); unset: no tracing. Read by
   * services/shared/telemetry/start.ts before this configuration is parsed; checked here so that a bad
   * value stops the start with the others.
   */
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrl(["http:", "https:"]),
  JSON_BODY_LIMIT: z
    .string()
    .regex(/^\d+(b|kb|mb)$/i, "must look like 100kb or 1mb")
    .default("100kb"),
});

/** The settings whose default derives from the deployment (its database). */
export type DeploymentName = "REDIS_PREFIX" | "EVENT_STREAM" | "SUBJECT_PREFIX";

const DEPLOYMENT_NAMES: readonly DeploymentName[] = ["REDIS_PREFIX", "EVENT_STREAM", "SUBJECT_PREFIX"];

export type Config = Omit<z.infer<typeof envSchema>, "DATA_DIR" | DeploymentName> & {
  /** absolute path of the data directory */
  DATA_DIR: string;
  /** prefix of every Redis key: set, or `portal:<deployment>:` once resolved */
  REDIS_PREFIX: string;
  /** JetStream stream: set, or `PORTAL_<deployment>` once resolved */
  EVENT_STREAM: string;
  /** subject prefix: set, or `portal_<deployment>` once resolved */
  SUBJECT_PREFIX: string;
  /**
   * The names left unset, still to derive from the deployment's id (`resolveDeploymentNames`, which
   * startRuntime applies). Until then they hold the shared legacy values `portal:`, `PORTAL` and
   * `portal`, which nothing may use to reach Redis or NATS.
   */
  derivedNames: readonly DeploymentName[];
};

/** The default stream, subject prefix and Redis prefix of a deployment id. */
export function deploymentNames(deploymentId: string): Record<DeploymentName, string> {
  return {
    REDIS_PREFIX: `portal:${deploymentId}:`,
    EVENT_STREAM: `PORTAL_${deploymentId}`,
    SUBJECT_PREFIX: `portal_${deploymentId}`,
  };
}

/**
 * The configuration with every name left unset derived from the deployment id; names set in the
 * environment win.
 */
export function resolveDeploymentNames(cfg: Config, deploymentId: string): Config {
  const derived = deploymentNames(deploymentId);
  const resolved: Config = { ...cfg, derivedNames: [] };
  for (const name of cfg.derivedNames) resolved[name] = derived[name];
  return resolved;
}

/** Raised when the environment holds a value the portal cannot start with. */
export class ConfigError extends Error {
  constructor(readonly issues: string[]) {
    super(`Invalid configuration:\n${issues.map((i) => `  - ${i}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/**
 * Parses an environment into the typed configuration.
 * @throws ConfigError naming every variable whose value is wrong.
 */
export function parseConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const raw: Record<string, string> = {};
  for (const key of Object.keys(envSchema.shape)) {
    const value = env[key];
    if (value !== undefined && value !== "") raw[key] = value;
  }
  const result = envSchema.safeParse(raw);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => {
        const name = String(issue.path[0] ?? "environment");
        const given = raw[name];
        const shown = given === undefined || /SECRET|PASSWORD|TOKEN/.test(name) ? "" : ` (got "${given}")`;
        return `${name}: ${issue.message}${shown}`;
      }),
    );
  }
  const cfg = result.data;
  if (cfg.NODE_ENV === "production") {
    const missing: string[] = [];
    if (!cfg.SESSION_SECRET) missing.push("SESSION_SECRET: is required when NODE_ENV=production");
    // The default Pro-app address is an example: production must name the real one.
    if (!raw.PRO_APP_URL) missing.push("PRO_APP_URL: is required when NODE_ENV=production");
    if (missing.length > 0) throw new ConfigError(missing);
  }
  return {
    ...cfg,
    DATA_DIR: path.resolve(cfg.DATA_DIR),
    REDIS_PREFIX: cfg.REDIS_PREFIX ?? "portal:",
    EVENT_STREAM: cfg.EVENT_STREAM ?? "PORTAL",
    SUBJECT_PREFIX: cfg.SUBJECT_PREFIX ?? "portal",
    derivedNames: DEPLOYMENT_NAMES.filter((name) => cfg[name] === undefined),
  };
}

let cached: Config | undefined;

/**
 * A stream, subject prefix or Redis prefix of the process-wide configuration, for code that reaches
 * NATS or Redis with it.
 * @throws Error when the name is still to derive from the deployment (startRuntime not applied).
 */
export function deploymentName(name: DeploymentName): string {
  const cfg = config();
  if (cfg.derivedNames.includes(name)) {
    throw new Error(`${name} is derived from the deployment: use startRuntime's config (runtime.config)`);
  }
  return cfg[name];
}

/** The process-wide configuration, parsed once. @throws ConfigError */
export function config(): Config {
  cached ??= parseConfig();
  return cached;
}

/** Replaces the process-wide configuration (tests and embedded start-up). */
export function setConfig(next: Config): void {
  cached = next;
}
