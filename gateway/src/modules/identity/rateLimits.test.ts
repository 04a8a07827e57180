import { randomInt } from "node:crypto";
import { identityAppFixture, prospectRegistration } from "@gateway/testing/fixtures";
import { createUser, TEST_PASSWORD, uniqueSuffix } from "@services/shared/testing/factories";
import request from "supertest";

// Registration, verification and reset limits per client address, over HTTP; and the session
// cookie's Secure flag behind an HTTPS proxy.

const h = identityAppFixture(
  {
    register: { points: 2, durationSec: 60 },
    verifyIp: { points: 2, durationSec: 60 },
    resetIp: { points: 2, durationSec: 60 },
    resetEmail: { points: 50, durationSec: 60 },
  },
  { noLeaks: true },
);

function newIp(): string {
  return `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
}

function post(path: string, ip: string, body: Record<string, unknown>) {
  return request(h.app)
    .post(path)
    .set("X-Forwarded-For", ip)
    .send(body)
    .then((res) => {
      h.bodies.push(res.text);
      return res;
    });
}

function registration() {
  const s = uniqueSuffix();
  return prospectRegistration(`rl_${s}`, "Rae", "Limit");
}

function expectLimited(res: request.Response): void {
  expect(res.status).toBe(429);
  expect(res.body.message).toMatch(/^Too many attempts\. Please try again in \d+ seconds?\.$/);
  expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
}

describe("per-address limits", () => {
  it("limits registrations and creates nothing once refused", async () => {
    const ip = newIp();
    expect((await post("/api/register", ip, registration())).status).toBe(201);
    expect((await post("/api/register", ip, registration())).status).toBe(201);
    const third = registration();
    expectLimited(await post("/api/register", ip, third));
    expect(await h.db.prisma.user.count({ where: { username: third.username } })).toBe(0);
    expect((await post("/api/register", newIp(), registration())).status).toBe(201);
  });

  it("limits verification attempts, valid-looking or not", async () => {
    const ip = newIp();
    for (let i = 0; i < 2; i++)
      expect((await post("/api/verify-email", ip, { token: "z".repeat(43) })).status).toBe(400);
    expectLimited(await post("/api/verify-email", ip, { token: "z".repeat(43) }));
    expect((await post("/api/verify-email", newIp(), { token: "z".repeat(43) })).status).toBe(400);
  });

  it("limits reset requests per address, whatever the email", async () => {
    const ip = newIp();
    const user = await createUser(h.db);
    expect(
      (await post("/api/reset-password", ip, { email: `a_${uniqueSuffix()}@example.test` })).status,
    ).toBe(200);
    expect(
      (await post("/api/reset-password", ip, { email: `b_${uniqueSuffix()}@example.test` })).status,
    ).toBe(200);
    expectLimited(await post("/api/reset-password", ip, { email: user.email }));
    expect((await post("/api/reset-password", newIp(), { email: user.email })).status).toBe(200);
  });
});

describe("the session cookie", () => {
  it("is Secure behind an HTTPS proxy and not over plain HTTP", async () => {
    const user = await createUser(h.db);
    const https = await request(h.app)
      .post("/api/login")
      .set("X-Forwarded-Proto", "https")
      .set("X-Forwarded-For", newIp())
      .send({ login: user.username, password: TEST_PASSWORD });
    h.bodies.push(https.text);
    expect(https.status).toBe(200);
    const cookies = ([] as string[]).concat(https.headers["set-cookie"] ?? []);
    const secure = cookies.find((c) => c.startsWith("portal.sid=")) ?? "";
    expect(secure).toMatch(/^portal\.sid=/);
    expect(secure).toMatch(/; Secure/);
    expect(secure).toMatch(/; HttpOnly/);
    expect(secure).toMatch(/; SameSite=Lax/);
    const plain = await request(h.app)
      .post("/api/login")
      .set("X-Forwarded-For", newIp())
      .send({ login: user.username, password: TEST_PASSWORD });
    h.bodies.push(plain.text);
    const plainCookies = ([] as string[]).concat(plain.headers["set-cookie"] ?? []);
    expect(plainCookies.length).toBeGreaterThan(0);
    for (const cookie of plainCookies) expect(cookie).not.toMatch(/; Secure/);
  });
});
