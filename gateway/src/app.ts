import { expressMiddleware } from "@as-integrations/express5";
import { EMAIL_FRAME_PATH } from "@schema/api/emailFrame";
import { PROBE_TIMEOUT_MS, type SystemProbes } from "@services/diagnostics";
import type { Config } from "@services/shared/config";
import type { Db } from "@services/shared/db";
import { logger } from "@services/shared/logger";
import { createRateLimiter, type RateLimitRules } from "@services/shared/rateLimit";
import type { RedisClient } from "@services/shared/redis";
import { signInRateRules } from "@services/user";
import compression from "compression";
import { RedisStore } from "connect-redis";
import express, { type Express, type NextFunction, type Request, type Response } from "express";
import type { Store } from "express-session";
import type { Logger } from "pino";
import { actorOf, sessionLimit } from "./auth/actor";
import { graphiqlRouter } from "./graphiql/router";
import type { GraphQLContext } from "./graphql/context";
import { graphqlOriginGuard } from "./graphql/originGuard";
import { createGraphQLServer } from "./graphql/server";
import { emailFrameHandlers } from "./http/emailFrame";
import { apiNotFound, errorHandler } from "./http/errorHandler";
import { createMetrics, metricsAccess } from "./http/metrics";
import { type ReadinessChecks, readinessHandler } from "./http/readiness";
import { redisGrace } from "./http/redisGrace";
import { requestContext } from "./http/requestContext";
import { requestLog } from "./http/requestLog";
import { securityHeaders } from "./http/security";
import { sessionMiddleware } from "./http/session";
import { settleUrlParseWarning } from "./http/urlParseWarning";
import { DEFAULT_WEB_DIST, webAppRouter } from "./http/webApp";
import { apiDocsRouter, openApiJsonHandler } from "./modules/apiDocs/apiDocs.rest";
import { appointmentsRouter } from "./modules/appointments/appointments.rest";
import { auditRouter } from "./modules/audit/audit.rest";
import { currentServerConfig } from "./modules/diagnostics/serverConfig";
import { documentsRouter } from "./modules/documents/documents.rest";
import { UPLOADS_PATH, uploadsHandler } from "./modules/documents/uploads.rest";
import { accountRouter } from "./modules/identity/account.rest";
import { authRouter } from "./modules/identity/auth.rest";
import { roleSwitchRouter } from "./modules/identity/roleSwitch.rest";
import { type IdentityDeps, loadSessionUser, sessionUser } from "./modules/identity/session";
import { createSessionIndex } from "./modules/identity/sessionIndex";
import { brandingRouter } from "./modules/settings/branding.rest";
import { passwordPolicyRouter } from "./modules/settings/passwordPolicy.rest";
import { esrtRouter, refuseApiKeysElsewhere } from "./modules/sync/esrt.rest";
import { userDirectoryRouter } from "./modules/users/userDirectory.rest";
import { USER_IMPORT_PATH, userImportRouter } from "./modules/users/userImport.rest";

export interface AppDeps {
  config: Config;
  db: Db;
  sessionStore: Store;
  /**
   * The deployment's id (services/shared/deployment): keys of the session index and the rate limits
   * carry it, so two deployments configured with one REDIS_PREFIX never touch each other's.
   */
  deployment?: string;
  /** Named checks run by GET /readyz (postgres, redis, nats...); each must resolve when healthy. */
  readiness: ReadinessChecks;
  metrics?: {
    consumerLag?: () => Promise<Record<string, number>>;
    droppedEvents?: () => Record<string, number>;
  };
  /** Built web app directory (default <repo>/web/dist). */
  webDist?: string;
  /**
   * Redis for rate limits and the per-user session index (default: the Redis session store's
   * client; without Redis both live in this process's memory, as in the embedded mode).
   */
  redis?: RedisClient;
  /** Shorter or longer rate limits than the defaults (tests). */
  rateLimits?: Partial<RateLimitRules>;
  /**
   * What the testing tools probe (/admin/testing): the runtime's readiness checks and event bus
   * (default: the database's ping alone).
   */
  probes?: Omit<SystemProbes, "db">;
  /** Where the HTTP request log goes (default: the process logger's "http" child). */
  httpLogger?: Logger;
}

export interface App {
  app: Express;
  /** Stops the GraphQL server; the caller closes the HTTP server and the backing services. */
  stop(): Promise<void>;
}

/** Express "trust proxy" value from TRUST_PROXY: a hop count, true/false, or addresses/names. */
export function trustProxySetting(value: string): boolean | number | string {
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v);
  if (v === "true") return true;
  if (v === "false" || v === "") return false;
  return v;
}

/**
 * Builds the portal's HTTP application: health, readiness and metrics endpoints, the REST API under
 * /api, GraphQL at /graphql, GraphiQL outside production, and the built web app for every other GET.
 * Sessions (Redis in production) are only touched by /api and /graphql.
 * @throws when the GraphQL server cannot start.
 */
export async function createApp(deps: AppDeps): Promise<App> {
  const cfg = deps.config;
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", trustProxySetting(cfg.TRUST_PROXY));
  // Express hands this setting to res.sendFile too: the built files' ETags depend on it
  app.set("etag", "strong");

  const metrics = createMetrics({
    db: deps.db,
    consumerLag: deps.metrics?.consumerLag,
    droppedEvents: deps.metrics?.droppedEvents,
  });
  // one listener per request logs it and times it into the metrics
  app.use(
    requestLog({
      logger: deps.httpLogger ?? logger("http"),
      quietPaths: new Set(["/healthz", "/readyz", "/metrics"]),
      onAnswered: metrics.record,
    }),
  );
  // the request's id and address for the audit log, again after each step that loses the context
  const inRequest = requestContext();
  app.use(inRequest);
  app.use(securityHeaders());
  // Text answers over 1 KB (JSON, HTML) go out brotli- or gzip-compressed where they can be that
  // large: GraphQL, the lists under /api (after the identity routes, whose answers are a few
  // hundred bytes) and the web app's pages; built assets have precompressed copies (./http/webApp).
  const compressed = compression({ threshold: 1024 });

  app.get("/healthz", (_req: Request, res: Response) => {
    res.setHeader("Cache-Control", "no-store");
    res.json({ status: "ok" });
  });
  app.get("/readyz", readinessHandler(deps.readiness));
  // a bearer token (METRICS_TOKEN) guards the figures; in production they are off without one
  app.get("/metrics", metricsAccess(cfg), async (_req: Request, res: Response) => {
    res.setHeader("Content-Type", metrics.registry.contentType);
    res.setHeader("Cache-Control", "no-store");
    res.send(await metrics.registry.metrics());
  });

  // the page email previews are shown in, with a CSP of its own (./http/emailFrame)
  app.get(EMAIL_FRAME_PATH, ...emailFrameHandlers());
  // GraphiQL replaces the app's CSP with its own (see ./http/security).
  if (cfg.NODE_ENV !== "production") app.use("/graphiql", graphiqlRouter());

  // The Redis session store's client is a node-redis v5 client like RedisClient.
  const redis =
    deps.redis ??
    (deps.sessionStore instanceof RedisStore ? (deps.sessionStore.client as RedisClient) : undefined);
  const keyPrefix = deps.deployment ? `${cfg.REDIS_PREFIX}${deps.deployment}:` : cfg.REDIS_PREFIX;
  const identity: IdentityDeps = {
    config: cfg,
    db: deps.db,
    store: deps.sessionStore,
    sessions: createSessionIndex({ redis, prefix: keyPrefix }),
    limiter: createRateLimiter({
      redis,
      prefix: keyPrefix,
      rules: deps.rateLimits,
      // the admin's sign-in limits (issue 12), read at each attempt (a 5 s cache a save clears)
      storedRules: () => signInRateRules(deps.db),
    }),
  };
  const loadUser = loadSessionUser(identity);
  const currentUser = [loadUser, inRequest];
  // a reconnecting Redis gets a moment before the session is read (see ./http/redisGrace)
  const sessions = redis
    ? [redisGrace(redis), sessionMiddleware(cfg, deps.sessionStore)]
    : [sessionMiddleware(cfg, deps.sessionStore)];

  // The Pro app's API keys open two routes (./modules/sync/esrt.rest) and nothing else: a Bearer header anywhere
  // else under /api (uploads included) or at /graphql is refused 401.
  app.use(["/api", "/graphql"], refuseApiKeysElsewhere());
  // tus uploads stream their bodies to the staging area: before the JSON parser and compression
  app.use(UPLOADS_PATH, sessions, currentUser, uploadsHandler({ db: deps.db, config: cfg }));
  // the client import's file may be larger than the JSON limit below allows: its own parser first
  app.use(USER_IMPORT_PATH, sessions, currentUser, userImportRouter(identity));
  app.use(express.json({ limit: cfg.JSON_BODY_LIMIT }), inRequest);

  // REST API
  const api = express.Router();
  // Public reads first: they need no session, so they answer even while Redis is away.
  api.get("/server-config", (_req: Request, res: Response) => {
    res.setHeader("Cache-Control", "no-store");
    const { serverTime, ...rest } = currentServerConfig(cfg);
    res.json({ ...rest, serverTime: serverTime.toISOString() });
  });
  // the OpenAPI document of these routes and its reference page (public in every mode)
  api.get("/openapi.json", compressed, openApiJsonHandler());
  api.use("/docs", compressed, apiDocsRouter());
  // mounted at its path, so that every other request passes it by without entering it
  api.use("/branding", brandingRouter({ db: deps.db }));
  api.use("/password-policy", passwordPolicyRouter({ db: deps.db }));
  // The Pro app's routes read the session only when no API key is given (a key needs no Redis).
  api.use(esrtRouter({ identity, session: [...sessions, ...currentUser] }));
  api.use(sessions, currentUser);
  api.use(authRouter(identity));
  api.use(accountRouter(identity));
  api.use(roleSwitchRouter(identity));
  // downloads stream files as they are (never recompressed)
  api.use(documentsRouter({ db: deps.db }));
  // CSV exports stream in batches: not held back by compression
  api.use(auditRouter({ db: deps.db }));
  api.use(compressed);
  api.use(appointmentsRouter({ db: deps.db, config: cfg }));
  api.use(userDirectoryRouter({ db: deps.db }));
  api.use(apiNotFound);
  app.use("/api", api);

  // GraphQL
  const graphql = await createGraphQLServer(cfg);
  // the integration parses each request's URL with url.parse(): spare it Node's stack walk
  settleUrlParseWarning();
  const probes: SystemProbes = {
    db: deps.db,
    ...(deps.probes ?? {
      readiness: { database: { mode: deps.db.mode, check: () => deps.db.ping(PROBE_TIMEOUT_MS) } },
    }),
  };
  app.use(
    "/graphql",
    (req: Request, res: Response, next: NextFunction) => {
      res.locals.metricsRoute = "/graphql";
      // The integration insists on a parsed body; a non-JSON POST has none and is refused by CSRF
      // prevention or as a bad request.
      if (!Object.hasOwn(req, "body")) req.body = undefined;
      next();
    },
    graphqlOriginGuard(cfg),
    compressed,
    sessions,
    currentUser,
    expressMiddleware(graphql, {
      context: async ({ req, res }): Promise<GraphQLContext> => {
        const user = sessionUser(res);
        return {
          req,
          res,
          config: cfg,
          db: deps.db,
          requestId: String(req.id),
          identity,
          currentUser: user ? actorOf(user) : null,
          limitedTo: sessionLimit(res),
          probes,
        };
      },
    }),
  );

  app.use(
    compressed,
    webAppRouter(deps.webDist ?? DEFAULT_WEB_DIST, { sourceMaps: cfg.NODE_ENV !== "production" }),
  );
  app.use(apiNotFound);
  app.use(errorHandler());

  return {
    app,
    stop: async () => {
      await graphql.stop();
    },
  };
}
