import { createHash, timingSafeEqual } from "node:crypto";
import { performance } from "node:perf_hooks";
import type { Config } from "@services/shared/config";
import type { Db } from "@services/shared/db";
import { logger } from "@services/shared/logger";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

export interface MetricsDeps {
  db: Db;
  consumerLag?: () => Promise<Record<string, number>>;
  /** events of another deployment each consumer dropped since start */
  droppedEvents?: () => Record<string, number>;
}

export interface HttpMetrics {
  registry: Registry;
  /** Express middleware timing every request into http_request_duration_seconds. */
  observe: (req: Request, res: Response, next: NextFunction) => void;
  /** Records one answered request that took `seconds` (for a middleware that times requests already). */
  record: (req: Request, res: Response, seconds: number) => void;
}

/** Name of the route a request took, for metric labels: bounded, never the raw URL. */
export function routeLabel(req: Request, res: Response): string {
  const fixed = res.locals.metricsRoute;
  if (typeof fixed === "string") return fixed;
  const route: unknown = req.route;
  if (route && typeof route === "object" && "path" in route && typeof route.path === "string") {
    return `${req.baseUrl}${route.path}`;
  }
  return "unmatched";
}

/**
 * A Prometheus registry for one app: request durations by method, route and status, the outbox
 * backlog (events not yet published), dead letters, consumer lag and another deployment's events
 * dropped (per consumer), and the default process metrics. Gauges are read from the database at
 * scrape time; a failing read is logged and leaves the gauge at its last value.
 */
export function createMetrics(deps: MetricsDeps): HttpMetrics {
  const registry = new Registry();
  const log = logger("metrics");
  collectDefaultMetrics({ register: registry });

  const duration = new Histogram({
    name: "http_request_duration_seconds",
    help: "Duration of HTTP requests in seconds",
    labelNames: ["method", "route", "status"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  new Gauge({
    name: "portal_outbox_backlog",
    help: "Outbox events written but not yet published to the event bus",
    registers: [registry],
    async collect() {
      try {
        this.set(await deps.db.prisma.outboxEvent.count({ where: { publishedAt: null } }));
      } catch (err) {
        log.warn({ err }, "could not count the outbox backlog");
      }
    },
  });

  new Gauge({
    name: "portal_dead_letters",
    help: "Events a consumer gave up on",
    registers: [registry],
    async collect() {
      try {
        this.set(await deps.db.prisma.deadLetter.count());
      } catch (err) {
        log.warn({ err }, "could not count dead letters");
      }
    },
  });

  const consumerLag = deps.consumerLag;
  new Gauge({
    name: "portal_consumer_lag",
    help: "Events delivered to the bus but not yet handled, per consumer",
    labelNames: ["consumer"] as const,
    registers: [registry],
    async collect() {
      if (!consumerLag) return;
      try {
        const lag = await consumerLag();
        this.reset();
        for (const [consumer, value] of Object.entries(lag)) this.set({ consumer }, value);
      } catch (err) {
        log.warn({ err }, "could not read consumer lag");
      }
    },
  });

  const droppedEvents = deps.droppedEvents;
  new Counter({
    name: "portal_foreign_events_dropped_total",
    help: "Events of another deployment a consumer acknowledged without effect, per consumer",
    labelNames: ["consumer"] as const,
    registers: [registry],
    collect() {
      if (!droppedEvents) return;
      this.reset();
      for (const [consumer, value] of Object.entries(droppedEvents())) this.inc({ consumer }, value);
    },
  });

  // one child per (method, route, status): the label set is hashed once, not on every answer
  const children = new Map<string, { observe(seconds: number): void }>();
  const record = (req: Request, res: Response, seconds: number): void => {
    const route = routeLabel(req, res);
    const status = String(res.statusCode);
    const key = `${req.method} ${route} ${status}`;
    let child = children.get(key);
    if (!child) {
      child = duration.labels({ method: req.method, route, status });
      children.set(key, child);
    }
    child.observe(seconds);
  };

  const observe = (req: Request, res: Response, next: NextFunction): void => {
    const started = performance.now();
    res.once("finish", () => record(req, res, (performance.now() - started) / 1000));
    next();
  };

  return { registry, observe, record };
}

const digest = (value: string): Buffer => createHash("sha256").update(value).digest();

/** The token of an `Authorization: Bearer <token>` header, or null. */
function bearerToken(req: Request): string | null {
  const match = /^Bearer[ ]+(\S+)[ ]*$/i.exec(req.get("authorization") ?? "");
  return match?.[1] ?? null;
}

/**
 * Who may read /metrics (issue 20): with METRICS_TOKEN set, only a request bearing it
 * (`Authorization: Bearer <token>`, compared in constant time), anyone else 401; without it, anyone
 * outside production, and in production nobody (404: the endpoint is off until a token is set).
 */
export function metricsAccess(cfg: Pick<Config, "METRICS_TOKEN" | "NODE_ENV">): RequestHandler {
  const token = cfg.METRICS_TOKEN;
  if (!token) {
    if (cfg.NODE_ENV !== "production") return (_req, _res, next) => next();
    logger("metrics").warn("/metrics is off in production until METRICS_TOKEN is set");
    return (_req, res) => {
      res.status(404).type("text/plain").setHeader("Cache-Control", "no-store").send("Not found\n");
    };
  }
  const expected = digest(token);
  return (req, res, next) => {
    const given = bearerToken(req);
    if (given !== null && timingSafeEqual(digest(given), expected)) return next();
    res
      .status(401)
      .type("text/plain")
      .setHeader("Cache-Control", "no-store")
      .setHeader("WWW-Authenticate", 'Bearer realm="metrics"')
      .send("Unauthorized\n");
  };
}
