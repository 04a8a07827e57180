import { createHash, randomInt } from "node:crypto";
import { identityAppFixture } from "@gateway/testing/fixtures";
import { sessionCookieOf } from "@gateway/testing/identityHarness";
import { createUser, TEST_PASSWORD, uniqueSuffix } from "@services/shared/testing/factories";
import request from "supertest";

// Sign-in hardening after review: the IP window refuses every attempt once used up, the account
// backoff follows the resolved account across IPs and login names, "@" belongs to emails only, and
// an enhanced-security account without questions gets no session.

const h = identityAppFixture(
  {
    loginIp: { points: 3, durationSec: 60 },
    loginAccount: { free: 50, maxDelaySec: 2, memorySec: 60 },
    loginAccountAny: { free: 2, maxDelaySec: 2, memorySec: 60 },
  },
  { noLeaks: true },
);

/** A fresh client address for each test (trust proxy: loopback). */
function newIp(): string {
  return `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
}

async function login(ip: string, loginName: string, password: string) {
  const res = await request(h.app)
    .post("/api/login")
    .set("X-Forwarded-For", ip)
    .send({ login: loginName, password });
  h.bodies.push(res.text);
  return res;
}

describe("the per-IP sign-in window", () => {
  it("refuses the right password too once the window is used up (no oracle)", async () => {
    const ip = newIp();
    const users = await Promise.all([createUser(h.db), createUser(h.db), createUser(h.db), createUser(h.db)]);
    // three failures on three different accounts use up this IP's window
    for (const u of users.slice(0, 3))
      expect((await login(ip, u.username, "Wrong-Password-1!")).status).toBe(401);
    const fourth = users[3];
    if (!fourth) throw new Error("no fourth user");
    const right = await login(ip, fourth.username, TEST_PASSWORD);
    expect(right.status).toBe(429);
    expect(right.body.message).toMatch(/^Too many attempts\. Please try again in \d+ seconds?\.$/);
    expect(right.headers["retry-after"]).toBeDefined();
    const wrong = await login(ip, fourth.username, "Wrong-Password-1!");
    expect(wrong.status).toBe(429);
    // another address is not affected
    expect((await login(newIp(), fourth.username, TEST_PASSWORD)).status).toBe(200);
  });
});

describe("the per-account backoff", () => {
  it("slows an account attacked from rotating addresses, by username and email alike", async () => {
    const user = await createUser(h.db);
    expect((await login(newIp(), user.username, "Wrong-Password-1!")).status).toBe(401);
    expect((await login(newIp(), user.email.toUpperCase(), "Wrong-Password-1!")).status).toBe(401);
    expect((await login(newIp(), user.username.toUpperCase(), "Wrong-Password-1!")).status).toBe(401);
    const slowed = await login(newIp(), user.email, TEST_PASSWORD);
    expect(slowed.status).toBe(429);
    expect(slowed.body.message).toMatch(/^Too many attempts/);
  });

  it("never locks the owner out for good: after the capped delay the right password works", async () => {
    const user = await createUser(h.db);
    for (let i = 0; i < 3; i++) await login(newIp(), user.username, "Wrong-Password-1!");
    expect((await login(newIp(), user.username, TEST_PASSWORD)).status).toBe(429);
    await new Promise((r) => setTimeout(r, 1100));
    const ok = await login(newIp(), user.username, TEST_PASSWORD);
    expect(ok.status).toBe(200);
    // a success clears the failures: one more wrong password is not slowed
    expect((await login(newIp(), user.username, "Wrong-Password-1!")).status).toBe(401);
  });
});

describe("usernames and email logins", () => {
  it("refuses '@' in a new username", async () => {
    const s = uniqueSuffix();
    const res = await request(h.app)
      .post("/api/register")
      .set("X-Forwarded-For", newIp())
      .send({
        username: `victim_${s}@example.test`,
        email: `squatter_${s}@example.test`,
        password: TEST_PASSWORD,
        firstName: "Sam",
        lastName: "Squatter",
        userType: "prospect",
      });
    h.bodies.push(res.text);
    expect(res.status).toBe(400);
    expect(res.body.errors.username).toEqual(["Username cannot contain @"]);
  });

  it("matches a login with '@' on emails only, even when an older username holds that text", async () => {
    const victim = await createUser(h.db);
    // a row from before the rule: its username is the victim's address, with another password
    await createUser(h.db, { username: victim.email.toUpperCase(), plainPassword: "Squatter-Pass-9!" });
    const res = await login(newIp(), victim.email, TEST_PASSWORD);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(victim.id);
    expect((await login(newIp(), victim.email, "Squatter-Pass-9!")).status).toBe(401);
  });
});

describe("enhanced security without questions", () => {
  it("refuses the session with 403 and the support message", async () => {
    const user = await createUser(h.db, { securityLevel: "enhanced" });
    const res = await login(newIp(), user.username, TEST_PASSWORD);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(
      "Security questions are required for this account. Please contact support.",
    );
    expect(sessionCookieOf(res)).toBeUndefined();
  });
});

describe("the audit of unknown-account failures", () => {
  it("keeps a sha256 of the lower-cased login, never the login itself", async () => {
    const unknown = `Nobody_${uniqueSuffix()}@Example.test`;
    expect((await login(newIp(), unknown, "Wrong-Password-1!")).status).toBe(401);
    const digest = createHash("sha256").update(unknown.toLowerCase()).digest("hex");
    const rows = await h.db.prisma.auditLog.findMany({
      where: { action: "user.login_failed", targetId: digest },
    });
    expect(rows).toHaveLength(1);
    const raw = await h.db.prisma.auditLog.count({
      where: { targetId: { contains: unknown.toLowerCase() } },
    });
    expect(raw).toBe(0);
  });
});

describe("the owner under attack (known device)", () => {
  function deviceCookieOf(res: request.Response): string | undefined {
    const header = res.headers["set-cookie"];
    const cookies: string[] = Array.isArray(header) ? header : header ? [String(header)] : [];
    return cookies.find((c) => c.startsWith("portal.device="))?.split(";")[0];
  }

  it("still signs the owner in from a browser that signed in before, while unknown devices are slowed", async () => {
    const user = await createUser(h.db);
    const first = await login(newIp(), user.username, TEST_PASSWORD);
    expect(first.status).toBe(200);
    const device = deviceCookieOf(first);
    expect(device).toBeDefined();
    expect(first.headers["set-cookie"]?.toString()).toMatch(/portal\.device=[^;]+;.*HttpOnly/);

    // an attacker fails from rotating addresses: the account-wide backoff starts
    for (let i = 0; i < 3; i++) await login(newIp(), user.email, "Wrong-Password-1!");
    expect((await login(newIp(), user.username, TEST_PASSWORD)).status).toBe(429);

    // the owner's browser carries its mark and gets in
    const owner = await request(h.app)
      .post("/api/login")
      .set("X-Forwarded-For", newIp())
      .set("Cookie", device ?? "")
      .send({ login: user.username, password: TEST_PASSWORD });
    h.bodies.push(owner.text);
    expect(owner.status).toBe(200);

    // a forged or foreign mark does not help
    const forged = await request(h.app)
      .post("/api/login")
      .set("X-Forwarded-For", newIp())
      .set("Cookie", (device ?? "").replace(/^portal\.device=\d+/, "portal.device=1"))
      .send({ login: user.username, password: "Wrong-Password-1!" });
    expect([401, 429]).toContain(forged.status);
    for (let i = 0; i < 3; i++) await login(newIp(), user.email, "Wrong-Password-1!");
    expect((await login(newIp(), user.username, TEST_PASSWORD)).status).toBe(429);
  });
});
