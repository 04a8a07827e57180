import { createRedisClient, type RedisClient } from "@services/shared/redis";
import { testDb } from "@services/shared/testing/db";
import { createUser, TEST_PASSWORD } from "@services/shared/testing/factories";
import type { Express } from "express";
import request from "supertest";
import {
  buildRedisApp,
  buildTestApp,
  closedPort,
  fakeWebDist,
  redisSessionStore,
  signedSessionCookie,
  testConfig,
} from "../testing/appHarness";
import { SESSION_ABSOLUTE_MS, SESSION_COOKIE, SESSION_IDLE_MS, sessionSecret } from "./session";

const web = fakeWebDist();
afterAll(() => web.remove());

describe("sessions on Redis", () => {
  let redis: RedisClient;
  let app: Express;
  let stop: () => Promise<void>;
  const cfg = testConfig();

  beforeAll(async () => {
    ({ app, redis, stop } = await buildRedisApp(() => ({ config: cfg, webDist: web.dir })));
  });

  afterAll(async () => {
    await stop();
  });

  it("creates no session (and sets no cookie) for an anonymous request", async () => {
    const res = await request(app).get("/api/user").expect(401);
    expect(res.headers["set-cookie"]).toBeUndefined();
  });

  it("renews a stored session's 30-minute idle expiry on each request, without sending the cookie again", async () => {
    const sid = `gw-test-${Date.now()}`;
    const key = `${cfg.REDIS_PREFIX}sess:${sid}`;
    // a session idle for 29 of its 30 minutes: one minute left
    const expires = new Date(Date.now() + SESSION_ABSOLUTE_MS).toISOString();
    await redis.set(
      key,
      JSON.stringify({
        cookie: { originalMaxAge: SESSION_ABSOLUTE_MS, expires, httpOnly: true, path: "/", sameSite: "lax" },
      }),
      { EX: 60 },
    );
    try {
      const res = await request(app)
        .get("/api/user")
        .set("Cookie", signedSessionCookie(sid, sessionSecret(cfg)))
        .expect(401);
      // the idle rule is the store's: the answer carries no new cookie
      expect(res.headers["set-cookie"]).toBeUndefined();
      // the renewal goes out as the answer does, without holding it back
      const deadline = Date.now() + 2000;
      while ((await redis.ttl(key)) < 25 * 60 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(await redis.ttl(key)).toBeGreaterThan(25 * 60);
    } finally {
      await redis.del(key);
    }
  });

  it("sets the cookie once at sign-in, for the session's absolute lifetime, and keeps the idle expiry in the store", async () => {
    const db = await testDb();
    const user = await createUser(db);
    const login = await request(app)
      .post("/api/login")
      .send({ login: user.username, password: TEST_PASSWORD });
    expect(login.status).toBe(200);
    const cookie = ([] as string[])
      .concat(login.headers["set-cookie"] ?? [])
      .find((c) => c.startsWith(`${SESSION_COOKIE}=`));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i);
    const expires = Date.parse(/Expires=([^;]+)/.exec(cookie ?? "")?.[1] ?? "");
    expect(Math.abs(expires - (Date.now() + SESSION_ABSOLUTE_MS))).toBeLessThan(5000);
    const sid =
      decodeURIComponent(cookie?.split(";")[0]?.split("=")[1] ?? "")
        .slice(2)
        .split(".")[0] ?? "";
    const ttl = await redis.ttl(`${cfg.REDIS_PREFIX}sess:${sid}`);
    expect(ttl).toBeGreaterThan(SESSION_IDLE_MS / 1000 - 5);
    expect(ttl).toBeLessThanOrEqual(SESSION_IDLE_MS / 1000);
    const me = await request(app)
      .get("/api/user")
      .set("Cookie", cookie?.split(";")[0] ?? "");
    expect(me.status).toBe(200);
    expect(me.headers["set-cookie"]).toBeUndefined();
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
