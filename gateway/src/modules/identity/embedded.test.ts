import { createApp } from "@gateway/app";
import { fakeWebDist, testConfig } from "@gateway/testing/appHarness";
import { sessionCookieOf } from "@gateway/testing/identityHarness";
import { testDb } from "@services/shared/testing/db";
import { createUser, TEST_PASSWORD } from "@services/shared/testing/factories";
import session from "express-session";
import request from "supertest";
import { createSessionIndex } from "./sessionIndex";

// The embedded mode (make start without Redis): sessions, the session index and rate limits all
// live in this process's memory and behave as on Redis.

describe("identity without Redis (embedded mode)", () => {
  const web = fakeWebDist();
  afterAll(() => web.remove());

  it("signs in, limits bad logins and ends other sessions after a password reset", async () => {
    const db = await testDb();
    const store = new session.MemoryStore();
    const { app, stop } = await createApp({
      config: testConfig(),
      db,
      readiness: {},
      sessionStore: store,
      webDist: web.dir,
      rateLimits: { loginAccount: { free: 1, maxDelaySec: 1, memorySec: 60 } },
    });
    try {
      const user = await createUser(db);
      const ok = await request(app)
        .post("/api/login")
        .send({ login: user.username, password: TEST_PASSWORD });
      expect(ok.status).toBe(200);
      const cookie = sessionCookieOf(ok) ?? "";
      expect((await request(app).get("/api/user").set("Cookie", cookie)).body.id).toBe(user.id);

      await request(app).post("/api/login").send({ login: user.username, password: "Wrong-password-1!" });
      await request(app).post("/api/login").send({ login: user.username, password: "Wrong-password-1!" });
      const limited = await request(app)
        .post("/api/login")
        .send({ login: user.username, password: TEST_PASSWORD });
      expect(limited.status).toBe(429);
      expect(limited.headers["retry-after"]).toBe("1");
    } finally {
      await stop();
    }
  });

  it("keeps the memory index: revokeOthers destroys every other session of the user", async () => {
    const store = new session.MemoryStore();
    const index = createSessionIndex({ prefix: "t:" });
    const put = (sid: string) =>
      new Promise<void>((resolve) =>
        store.set(sid, { cookie: new session.Cookie(), userId: 7 }, () => resolve()),
      );
    const has = (sid: string) =>
      new Promise<boolean>((resolve) => store.get(sid, (_e, s) => resolve(Boolean(s))));
    for (const sid of ["a", "b", "c"]) {
      await put(sid);
      await index.add(7, sid);
    }
    expect(await index.revokeOthers({ store, userId: 7, keepSid: "b" })).toBe(2);
    expect(await has("a")).toBe(false);
    expect(await has("b")).toBe(true);
    expect(await has("c")).toBe(false);
  });
});
