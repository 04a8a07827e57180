import { createApp } from "@gateway/app";
import { closedPort, fakeWebDist, testConfig } from "@gateway/testing/appHarness";
import { createRedisClient } from "@services/shared/redis";
import { createSessionStore } from "@services/shared/sessionStore";
import { testDb } from "@services/shared/testing/db";
import { uniqueSuffix } from "@services/shared/testing/factories";
import request from "supertest";

describe("identity while Redis is down", () => {
  it("answers login and registration 503 within a second and creates nothing", async () => {
    const web = fakeWebDist();
    const port = await closedPort();
    const down = createRedisClient(`redis://127.0.0.1:${port}`, { maxBackoffMs: 200 });
    down.connect().catch(() => undefined);
    const cfg = testConfig();
    const db = await testDb();
    const { app, stop } = await createApp({
      config: cfg,
      db,
      readiness: {},
      sessionStore: createSessionStore({ redis: down, prefix: cfg.REDIS_PREFIX }),
      webDist: web.dir,
    });
    try {
      let started = Date.now();
      const login = await request(app).post("/api/login").send({ login: "someone", password: "Whatever-1!" });
      expect(login.status).toBe(503);
      expect(Date.now() - started).toBeLessThan(1000);

      const username = `down_${uniqueSuffix()}`;
      started = Date.now();
      const reg = await request(app)
        .post("/api/register")
        .send({
          username,
          email: `${username}@example.test`,
          password: "Test-Password-1!",
          firstName: "Dee",
          lastName: "Down",
          userType: "prospect",
        });
      expect(reg.status).toBe(503);
      expect(Date.now() - started).toBeLessThan(1000);
      expect(await db.prisma.user.count({ where: { username } })).toBe(0);

      // the public reads need no session and still answer
      expect((await request(app).get("/api/server-config")).status).toBe(200);
      const branding = await request(app).get("/api/branding");
      expect(branding.status).toBe(200);
      expect(branding.body.title).toEqual(expect.any(String));
    } finally {
      await stop();
      down.destroy();
      web.remove();
    }
  });
});
