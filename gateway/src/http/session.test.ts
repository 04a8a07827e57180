import type { Express } from "express";
import request from "supertest";
import { createRedisClient, type RedisClient } from "../../../services/shared/redis";
import {
  buildTestApp,
  closedPort,
  fakeWebDist,
  redisSessionStore,
  signedSessionCookie,
  testConfig,
  testRedis,
} from "../testing/appHarness";
import { SESSION_COOKIE, SESSION_IDLE_MS, sessionSecret } from "./session";

const web = fakeWebDist();
afterAll(() => web.remove());

describe("sessions on Redis", () => {
  let redis: RedisClient;
  let app: Express;
  let stop: () => Promise<void>;
  const cfg = testConfig();

  beforeAll(async () => {
    redis = await testRedis();
    const built = await buildTestApp({
      config: cfg,
      sessionStore: redisSessionStore(redis, cfg),
      webDist: web.dir,
    });
    app = built.app;
    stop = built.stop;
  });

  afterAll(async () => {
    await stop();
    redis.destroy();
  });

  it("creates no session (and sets no cookie) for an anonymous request", async () => {
    const res = await request(app).get("/api/user").expect(401);
    expect(res.headers["set-cookie"]).toBeUndefined();
  });

  it("renews a stored session's 30-minute idle expiry on each request (rolling)", async () => {
    const sid = `gw-test-${Date.now()}`;
    const key = `${cfg.REDIS_PREFIX}sess:${sid}`;
    // a session idle for 29 of its 30 minutes: one minute left
    const expires = new Date(Date.now() + 60_000).toISOString();
    await redis.set(
      key,
      JSON.stringify({
        cookie: { originalMaxAge: SESSION_IDLE_MS, expires, httpOnly: true, path: "/", sameSite: "lax" },
      }),
      { EX: 60 },
    );
    try {
      const res = await request(app)
        .get("/api/user")
        .set("Cookie", signedSessionCookie(sid, sessionSecret(cfg)))
        .expect(401);
      // rolling: the known session's cookie is renewed with the portal's attributes
      const cookie = String(res.headers["set-cookie"]);
      expect(cookie).toContain(`${SESSION_COOKIE}=`);
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Lax/i);
      expect(cookie).not.toMatch(/Secure/i);
      const ttl = await redis.ttl(key);
      expect(ttl).toBeGreaterThan(25 * 60);
    } finally {
      await redis.del(key);
    }
  });
});

describe("sessions while Redis is down", () => {
  it("answers 503 within about a second instead of hanging", async () => {
    const port = await closedPort();
    const down = createRedisClient(`redis://127.0.0.1:${port}`, { maxBackoffMs: 200 });
    down.connect().catch(() => undefined);
    const cfg = testConfig();
    const built = await buildTestApp({
      config: cfg,
      sessionStore: redisSessionStore(down, cfg),
      webDist: web.dir,
    });
    try {
      const started = Date.now();
      const res = await request(built.app)
        .get("/api/user")
        .set("Cookie", signedSessionCookie("some-session", sessionSecret(cfg)))
        .expect(503);
      expect(Date.now() - started).toBeLessThan(1000);
      expect(res.body.code).toBe("UNAVAILABLE");
      expect(res.body.message).toMatch(/sessions are temporarily unavailable/i);
      expect(res.headers["retry-after"]).toBeDefined();
      // what does not need a session keeps working
      await request(built.app).get("/healthz").expect(200);
      await request(built.app).get("/dashboard").expect(200);
    } finally {
      await built.stop();
      down.destroy();
    }
  });
});
