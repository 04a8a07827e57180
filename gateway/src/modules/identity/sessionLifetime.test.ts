import { identityAppFixture, sessionStoreKey, signInOk } from "@gateway/testing/fixtures";
import { sessionCookieOf } from "@gateway/testing/identityHarness";
import { createUser, TEST_PASSWORD } from "@services/shared/testing/factories";
import request from "supertest";

// The server side of the session rules: a session-check is not activity, so the 30-minute idle
// expiry holds on the server even when the browser keeps checking.

const h = identityAppFixture();

function signIn(login: string): Promise<string> {
  return signInOk(h.app, login);
}

describe("GET /api/session-check", () => {
  it("answers the real expiry and does not extend an idle session, which then ends", async () => {
    const user = await createUser(h.db);
    const cookie = await signIn(user.username);
    const key = sessionStoreKey(cookie);
    // the session has been idle for almost 30 minutes: 1.5 s remain
    const stored = JSON.parse((await h.redis.get(key)) ?? "{}");
    const expiresAt = new Date(Date.now() + 1500);
    stored.cookie.expires = expiresAt.toISOString();
    await h.redis.set(key, JSON.stringify(stored), { PX: 1500 });

    const check = await request(h.app).get("/api/session-check").set("Cookie", cookie);
    expect(check.status).toBe(200);
    expect(check.headers["cache-control"]).toBe("no-store");
    expect(Math.abs(new Date(check.body.expiresAt).getTime() - expiresAt.getTime())).toBeLessThan(1000);
    // the store keeps whole seconds: at most the 1.5 s rounded up, never a new 30 minutes
    expect(await h.redis.pTTL(key)).toBeLessThanOrEqual(2000);

    await new Promise((r) => setTimeout(r, 2100));
    const later = await request(h.app).get("/api/session-check").set("Cookie", cookie);
    expect(later.status).toBe(401);
    expect(later.body.message).toBe("Session expired");
    expect((await request(h.app).get("/api/user").set("Cookie", cookie)).status).toBe(401);
  });

  it("lets real activity renew the idle expiry", async () => {
    const user = await createUser(h.db);
    const cookie = await signIn(user.username);
    const key = sessionStoreKey(cookie);
    await h.redis.pExpire(key, 1500);
    expect((await request(h.app).get("/api/user").set("Cookie", cookie)).status).toBe(200);
    expect(await h.redis.pTTL(key)).toBeGreaterThan(29 * 60 * 1000);
  });
});

describe("revocation when Redis missed it", () => {
  it("refuses a session older than the user's password change even if it was never destroyed", async () => {
    const user = await createUser(h.db);
    const old = await signIn(user.username);
    const mine = await signIn(user.email);
    // Redis loses the session index (failover, eviction): the change cannot find the old session
    await h.redis.del(`${process.env.REDIS_PREFIX ?? "portal:"}user-sessions:${user.id}`);
    const changed = await request(h.app)
      .post("/api/user/password")
      .set("Cookie", mine)
      .send({ currentPassword: TEST_PASSWORD, newPassword: "Quiet-Harbour-64!" });
    expect(changed.status).toBe(200);
    expect(await h.redis.exists(sessionStoreKey(old))).toBe(1);
    const row = await h.db.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.sessionsValidAfter).toBeInstanceOf(Date);

    expect((await request(h.app).get("/api/user").set("Cookie", old)).status).toBe(401);
    expect(await h.redis.exists(sessionStoreKey(old))).toBe(0);
    const renewed = sessionCookieOf(changed) ?? "";
    expect((await request(h.app).get("/api/user").set("Cookie", renewed)).status).toBe(200);
  });

  it("refuses sessions older than a status or type change made directly in the database", async () => {
    const user = await createUser(h.db, { userType: "prospect" });
    const cookie = await signIn(user.username);
    expect((await request(h.app).get("/api/user").set("Cookie", cookie)).status).toBe(200);
    await h.db.prisma.user.update({
      where: { id: user.id },
      data: { userType: "client", sessionsValidAfter: new Date(Date.now() + 5) },
    });
    await new Promise((r) => setTimeout(r, 10));
    expect((await request(h.app).get("/api/user").set("Cookie", cookie)).status).toBe(401);
  });
});

describe("what a sign-in writes to the session store", () => {
  /**
   * The session commands (SET, DEL) this file's portal sends Redis while `work` runs: those of its
   * own connection (other files running at once share the run's key prefix).
   */
  async function sessionWrites(work: () => Promise<void>): Promise<string[]> {
    const prefix = `${process.env.REDIS_PREFIX ?? "portal:"}sess:`;
    const { addr } = await h.redis.clientInfo();
    const monitor = h.redis.duplicate();
    await monitor.connect();
    const seen: string[] = [];
    try {
      await monitor.monitor((line) => {
        if (!line.includes(` ${addr}] `)) return;
        const [command, key] = [...line.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1] ?? "");
        if (key?.startsWith(prefix) && (command === "SET" || command === "DEL")) {
          seen.push(`${command} ${key.slice(prefix.length)}`);
        }
      });
      await work();
      // a PING through the monitored server marks the end: every command before it has been seen
      await h.redis.ping();
    } finally {
      monitor.destroy();
    }
    return seen;
  }
  const sid = (cookie: string) => sessionStoreKey(cookie).split("sess:")[1];

  it("writes a visitor's new session once, and replaces a session the browser carried", async () => {
    const user = await createUser(h.db);
    let first = "";
    const fresh = await sessionWrites(async () => {
      first = await signIn(user.username);
    });
    // no DEL of a record that never was, and no second write of the same session as the answer goes
    expect(fresh).toEqual([`SET ${sid(first)}`]);

    let second = "";
    const carried = await sessionWrites(async () => {
      const res = await request(h.app)
        .post("/api/login")
        .set("Cookie", first)
        .send({ login: user.username, password: TEST_PASSWORD });
      expect(res.status).toBe(200);
      second = sessionCookieOf(res) ?? "";
    });
    expect(sid(second)).not.toBe(sid(first));
    expect(carried).toEqual([`DEL ${sid(first)}`, `SET ${sid(second)}`]);
    expect((await request(h.app).get("/api/user").set("Cookie", first)).status).toBe(401);
    expect((await request(h.app).get("/api/user").set("Cookie", second)).body.id).toBe(user.id);
  });
});
