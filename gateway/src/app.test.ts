import { writeFileSync } from "node:fs";
import path from "node:path";
import type { RedisClient } from "@services/shared/redis";
import { testDb } from "@services/shared/testing/db";
import type { Express } from "express";
import request from "supertest";
import type { AppDeps } from "./app";
import {
  buildRedisApp,
  buildTestApp,
  fakeWebDist,
  redisSessionStore,
  testConfig,
} from "./testing/appHarness";

let app: Express;
let stop: () => Promise<void>;
let redis: RedisClient;
let web: ReturnType<typeof fakeWebDist>;

beforeAll(async () => {
  web = fakeWebDist();
  ({ app, redis, stop } = await buildRedisApp((client) => ({
    readiness: {
      postgres: async () => (await testDb()).ping(),
      redis: async () => void (await client.ping()),
    },
    metrics: {
      consumerLag: async () => ({ "email-sender": 3 }),
      droppedEvents: () => ({ email_registration: 2 }),
    },
    webDist: web.dir,
  })));
});

afterAll(async () => {
  await stop();
  web.remove();
});

/**
 * Runs `use` on an app built with `deps` beside this file's one (its sessions on the same Redis, the
 * fake web build unless `deps` names another), and stops it after, however `use` ends.
 */
async function withOtherApp(deps: Partial<AppDeps>, use: (other: Express) => Promise<void>): Promise<void> {
  const cfg = deps.config ?? testConfig();
  const other = await buildTestApp({
    webDist: web.dir,
    ...deps,
    config: cfg,
    sessionStore: redisSessionStore(redis, cfg),
  });
  try {
    await use(other.app);
  } finally {
    await other.stop();
  }
}

describe("health and readiness", () => {
  it("answers /healthz with ok", async () => {
    const res = await request(app).get("/healthz").expect(200);
    expect(res.body).toEqual({ status: "ok" });
  });

  it("answers /readyz 200 naming every passing check", async () => {
    const res = await request(app).get("/readyz").expect(200);
    expect(res.body).toEqual({ status: "ready", checks: { postgres: "ok", redis: "ok" } });
  });

  it("answers /readyz 503 naming a failing and a hanging check, within about 2 s", async () => {
    await withOtherApp(
      {
        readiness: {
          postgres: async () => undefined,
          redis: async () => {
            throw new Error("connection refused at 10.0.0.1:6379");
          },
          nats: () => new Promise<void>(() => undefined),
        },
      },
      async (failing) => {
        const started = Date.now();
        const res = await request(failing).get("/readyz").expect(503);
        expect(Date.now() - started).toBeLessThan(2500);
        expect(res.body.status).toBe("unavailable");
        expect(res.body.checks).toEqual({ postgres: "ok", redis: "failed", nats: "timeout" });
        expect(res.body.failing).toEqual(["redis", "nats"]);
        expect(JSON.stringify(res.body)).not.toContain("10.0.0.1");
      },
    );
  });
});

describe("request ids and security headers", () => {
  it("echoes a sane incoming x-request-id and replaces an unsafe one", async () => {
    const kept = await request(app).get("/healthz").set("x-request-id", "req-1234abcd").expect(200);
    expect(kept.headers["x-request-id"]).toBe("req-1234abcd");
    const replaced = await request(app).get("/healthz").set("x-request-id", "<script>").expect(200);
    expect(replaced.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("sends a strict CSP on the app", async () => {
    const res = await request(app).get("/").expect(200);
    const csp = String(res.headers["content-security-policy"]);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    expect(csp).not.toContain("unsafe-inline");
    expect(res.headers["x-powered-by"]).toBeUndefined();
    // over plain http: HSTS is for answers over HTTPS only (./http/security.test.ts)
    expect(res.headers["strict-transport-security"]).toBeUndefined();
  });
});

describe("metrics", () => {
  it("exposes request durations, outbox backlog, dead letters, consumer lag and process metrics", async () => {
    const db = await testDb();
    const dead = await db.prisma.deadLetter.create({
      data: {
        consumer: "gateway-metrics-test",
        eventId: "0190c3f0-0000-7000-8000-000000000001",
        subject: "t.test.failed",
        envelope: {},
        error: "boom",
        attempts: 5,
      },
    });
    try {
      await request(app).get("/healthz").expect(200);
      const res = await request(app).get("/metrics").expect(200);
      const text = res.text;
      expect(res.headers["content-type"]).toContain("text/plain");
      expect(text).toMatch(
        /http_request_duration_seconds_bucket\{[^}]*method="GET"[^}]*route="\/healthz"[^}]*status="200"/,
      );
      expect(text).toMatch(/^portal_outbox_backlog \d+$/m);
      const deadLetters = Number(/^portal_dead_letters (\d+)$/m.exec(text)?.[1]);
      expect(deadLetters).toBeGreaterThanOrEqual(1);
      expect(text).toContain('portal_consumer_lag{consumer="email-sender"} 3');
      expect(text).toContain('portal_foreign_events_dropped_total{consumer="email_registration"} 2');
      expect(text).toContain("process_cpu_user_seconds_total");
    } finally {
      await db.prisma.deadLetter.delete({ where: { id: dead.id } });
    }
  });
});

describe("REST", () => {
  it("answers /api/server-config with the configured values, never cached", async () => {
    const cfg = testConfig();
    const res = await request(app).get("/api/server-config").expect(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.body).toEqual({
      port: cfg.PORT,
      proAppUrl: cfg.PRO_APP_URL,
      environment: "test",
      serverTime: expect.any(String),
    });
    expect(Math.abs(Date.parse(res.body.serverTime) - Date.now())).toBeLessThan(5000);
  });

  it("answers unknown /api paths with JSON 404", async () => {
    const res = await request(app).get("/api/no-such-thing").expect(404);
    expect(res.body).toEqual({ message: "Not found" });
    await request(app).post("/api/no-such-thing").send({}).expect(404);
  });

  it("answers malformed JSON with 400 and no stack trace", async () => {
    const res = await request(app)
      .post("/api/anything")
      .set("Content-Type", "application/json")
      .send('{"login": "ann", ')
      .expect(400);
    expect(res.headers["content-type"]).toContain("application/json");
    expect(res.body.message).toMatch(/malformed json/i);
    expect(res.text).not.toMatch(/at .*\.js:\d+|SyntaxError|node_modules/);
  });

  it("answers a body over JSON_BODY_LIMIT with 413", async () => {
    const big = JSON.stringify({ notes: "x".repeat(200 * 1024) });
    const res = await request(app)
      .post("/api/user/notes")
      .set("Content-Type", "application/json")
      .send(big)
      .expect(413);
    expect(res.body.message).toMatch(/too large/i);
  });
});

describe("GraphQL", () => {
  it("answers { serverConfig { proAppUrl } }", async () => {
    const res = await request(app)
      .post("/graphql")
      .send({ query: "{ serverConfig { proAppUrl serverTime } health }" })
      .expect(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.serverConfig.proAppUrl).toBe(testConfig().PRO_APP_URL);
    expect(Number.isNaN(Date.parse(res.body.data.serverConfig.serverTime))).toBe(false);
    expect(res.body.data.health).toBe("ok");
  });

  it("refuses a text/plain POST (CSRF) without running it", async () => {
    const res = await request(app)
      .post("/graphql")
      .set("Content-Type", "text/plain")
      .send(JSON.stringify({ query: "{ health }" }))
      .expect(400);
    expect(res.text).toMatch(/CSRF/);
    expect(res.text).not.toContain('"health"');
  });

  it("shows no stack trace in a refusal, even in development", async () => {
    await withOtherApp({ config: testConfig({ NODE_ENV: "development" }) }, async (dev) => {
      const res = await request(dev)
        .post("/graphql")
        .set("Content-Type", "text/plain")
        .send(JSON.stringify({ query: "{ health }" }))
        .expect(400);
      expect(res.body.errors[0].message).toMatch(/CSRF/);
      expect(res.text).not.toMatch(/stacktrace|node_modules|\bat \w/);
    });
  });

  it("answers a path that cannot be decoded with 400, not 500", async () => {
    const res = await request(app).get("/%E0%A4%A").expect(400);
    expect(res.body).toEqual({ message: "Malformed URL", code: "BAD_REQUEST" });
  });

  it("refuses a simple GET without a preflight header and answers one with it", async () => {
    await request(app).get("/graphql").query({ query: "{ health }" }).expect(400);
    const res = await request(app)
      .get("/graphql")
      .query({ query: "{ health }" })
      .set("apollo-require-preflight", "true")
      .expect(200);
    expect(res.body.data).toEqual({ health: "ok" });
  });

  it("refuses too many aliases with a clear message", async () => {
    const aliases = Array.from({ length: 30 }, (_, i) => `a${i}: health`).join(" ");
    const res = await request(app)
      .post("/graphql")
      .send({ query: `{ ${aliases} }` });
    expect(res.status).toBe(400);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors[0].message).toMatch(/aliases/i);
  });

  it("refuses a query with too many tokens", async () => {
    const fields = Array.from({ length: 2500 }, () => "health").join(" ");
    const res = await request(app)
      .post("/graphql")
      .send({ query: `{ ${fields} }` });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toMatch(/token/i);
  });

  it("reports an unknown field as a client error, not an internal one", async () => {
    const res = await request(app).post("/graphql").send({ query: "{ nope }" }).expect(400);
    expect(res.body.errors[0].extensions.code).toBe("GRAPHQL_VALIDATION_FAILED");
    expect(JSON.stringify(res.body)).not.toContain("stacktrace");
  });

  it("refuses an operation deeper than GRAPHQL_MAX_DEPTH", async () => {
    await withOtherApp({ config: testConfig({ GRAPHQL_MAX_DEPTH: 1 }) }, async (strict) => {
      await request(strict).post("/graphql").send({ query: "{ health }" }).expect(200);
      const res = await request(strict).post("/graphql").send({ query: "{ serverConfig { port } }" });
      expect(res.status).toBe(400);
      expect(res.body.data).toBeUndefined();
      expect(res.body.errors[0].message).toMatch(/depth/i);
    });
  });
});

describe("web app", () => {
  it("serves hashed assets as immutable for a year", async () => {
    const res = await request(app).get("/assets/x-abc123.js").expect(200);
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(res.text).toContain("console.log");
  });

  it("answers a missing asset with 404, not the app", async () => {
    const res = await request(app).get("/assets/gone-123.js").expect(404);
    expect(res.text).not.toContain("portal app");
  });

  it("serves index.html with no-cache for client routes, unknown paths included", async () => {
    for (const route of ["/", "/dashboard", "/admin/user-management", "/no/such/page"]) {
      const res = await request(app).get(route).expect(200);
      expect(res.headers["cache-control"]).toBe("no-cache");
      expect(res.headers["content-type"]).toContain("text/html");
      expect(res.text).toContain("portal app");
    }
  });

  it("answers 503 with build instructions when the web app is not built", async () => {
    await withOtherApp({ webDist: "/nonexistent/portal-web-dist" }, async (bare) => {
      const res = await request(bare).get("/dashboard").expect(503);
      expect(res.headers["content-type"]).toContain("text/plain");
      expect(res.text).toMatch(/build/);
      await request(bare).get("/healthz").expect(200);
    });
  });
});

describe("production mode", () => {
  const TOKEN = "metrics-token-0123456789abcdef";
  const production = (overrides: Partial<ReturnType<typeof testConfig>> = {}) =>
    testConfig({ NODE_ENV: "production", SESSION_SECRET: "p".repeat(32), ...overrides });
  let prod: Awaited<ReturnType<typeof buildTestApp>>;

  beforeAll(async () => {
    // a build that left its source maps behind (an older build, or one made by hand)
    writeFileSync(path.join(web.dir, "assets", "x-abc123.js.map"), '{"version":3,"sources":["src/App.tsx"]}');
    writeFileSync(path.join(web.dir, "index.js.map"), '{"version":3,"sources":["src/main.tsx"]}');
    const cfg = production({ METRICS_TOKEN: TOKEN });
    prod = await buildTestApp({ config: cfg, sessionStore: redisSessionStore(redis, cfg), webDist: web.dir });
  });

  afterAll(async () => {
    await prod.stop();
  });

  it("serves no source map, however it is asked for, and still the app's files", async () => {
    for (const mapPath of [
      "/assets/x-abc123.js.map",
      "/assets/x-abc123.js%2Emap",
      "/assets/x-abc123.js.MAP",
      "/index.js.map",
    ]) {
      const res = await request(prod.app).get(mapPath);
      expect([mapPath, res.status]).toEqual([mapPath, 404]);
      expect(res.text).not.toContain("sources");
    }
    await request(prod.app).get("/assets/x-abc123.js").expect(200);
    // outside production a source map on disk is still served (for debugging a local build)
    await request(app).get("/assets/x-abc123.js.map").expect(200);
  });

  it("answers /metrics 401 without the bearer token or with a wrong one, and 200 with it", async () => {
    for (const authorization of [undefined, "Bearer wrong-token-0123456789abcdef", `Basic ${TOKEN}`, TOKEN]) {
      const req = request(prod.app).get("/metrics");
      const res = await (authorization ? req.set("Authorization", authorization) : req);
      expect([authorization, res.status]).toEqual([authorization, 401]);
      expect(res.headers["www-authenticate"]).toBe('Bearer realm="metrics"');
      expect(res.text).not.toContain("http_request_duration_seconds");
    }
    const res = await request(prod.app).get("/metrics").set("Authorization", `Bearer ${TOKEN}`).expect(200);
    expect(res.text).toContain("http_request_duration_seconds");
  });

  it("keeps /metrics off in production without METRICS_TOKEN", async () => {
    const cfg = production();
    await withOtherApp({ config: cfg }, async (open) => {
      const res = await request(open).get("/metrics").set("Authorization", "Bearer anything-at-all-here");
      expect(res.status).toBe(404);
      expect(res.text).not.toContain("process_cpu");
    });
  });
});
