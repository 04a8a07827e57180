import { identityAppFixture, signInOk } from "@gateway/testing/fixtures";
import { sessionCookieOf } from "@gateway/testing/identityHarness";
import { createUser, TEST_PASSWORD } from "@services/shared/testing/factories";
import request from "supertest";

const NEW_PASSWORD = "Fresh-Lantern-58!";

const h = identityAppFixture(
  {
    loginAccount: { free: 50, maxDelaySec: 2, memorySec: 60 },
    loginAccountAny: { free: 2, maxDelaySec: 2, memorySec: 60 },
  },
  { noLeaks: () => [NEW_PASSWORD] },
);

async function call(test: request.Test): Promise<request.Response> {
  const res = await test;
  h.bodies.push(res.text);
  return res;
}

function signIn(login: string, password = TEST_PASSWORD): Promise<string> {
  return signInOk(h.app, login, password, h.bodies);
}

function change(cookie: string, body: Record<string, unknown>) {
  return call(request(h.app).post("/api/user/password").set("Cookie", cookie).send(body));
}

async function eventsOf(userId: number) {
  const rows = await h.db.prisma.outboxEvent.findMany({ where: { type: "user.password_changed" } });
  return rows
    .map((r) => (r.envelope as { payload: Record<string, unknown> }).payload)
    .filter((p) => p.userId === userId);
}

describe("POST /api/user/password", () => {
  it("answers 401 signed out", async () => {
    const res = await change("", { currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe("Unauthorized - Please log in");
  });

  it("refuses invalid input, a wrong current password and a common new one, changing nothing", async () => {
    const user = await createUser(h.db);
    const cookie = await signIn(user.username);
    const invalid = await change(cookie, { currentPassword: TEST_PASSWORD, newPassword: "short" });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors.newPassword).toContain("Password must be at least 8 characters");
    const wrong = await change(cookie, { currentPassword: "Not-The-One-1!", newPassword: NEW_PASSWORD });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe("Current password is incorrect");
    const common = await change(cookie, { currentPassword: TEST_PASSWORD, newPassword: "Welcome2024!" });
    expect(common.status).toBe(400);
    expect(common.body.message).toBe("This password is too common. Please choose another.");
    expect(await eventsOf(user.id)).toEqual([]);
    expect((await call(request(h.app).get("/api/user").set("Cookie", cookie))).status).toBe(200);
  });

  it("counts wrong current passwords toward the account backoff", async () => {
    const user = await createUser(h.db);
    const cookie = await signIn(user.username);
    await change(cookie, { currentPassword: "Not-The-One-1!", newPassword: NEW_PASSWORD });
    await change(cookie, { currentPassword: "Not-The-One-2!", newPassword: NEW_PASSWORD });
    await change(cookie, { currentPassword: "Not-The-One-3!", newPassword: NEW_PASSWORD });
    const slowed = await change(cookie, { currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD });
    expect(slowed.status).toBe(429);
    expect(slowed.headers["retry-after"]).toBeDefined();
    // the same account is slowed at the sign-in form as well
    const login = await call(
      request(h.app).post("/api/login").send({ login: user.email, password: TEST_PASSWORD }),
    );
    expect(login.status).toBe(429);
  });

  it("changes the password, renews this session's id, ends the others, emits and audits", async () => {
    const user = await createUser(h.db);
    const other = await signIn(user.username);
    const mine = await signIn(user.email);
    const res = await change(mine, { currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: "Password updated" });
    const renewed = sessionCookieOf(res);
    expect(renewed).toBeDefined();
    expect(renewed).not.toBe(mine);

    expect(
      (
        await call(
          request(h.app)
            .get("/api/user")
            .set("Cookie", renewed ?? ""),
        )
      ).status,
    ).toBe(200);
    expect((await call(request(h.app).get("/api/user").set("Cookie", mine))).status).toBe(401);
    expect((await call(request(h.app).get("/api/user").set("Cookie", other))).status).toBe(401);

    expect(await eventsOf(user.id)).toEqual([
      { userId: user.id, email: user.email, firstName: user.firstName, via: "self" },
    ]);
    expect(
      await h.db.prisma.auditLog.count({
        where: { action: "user.password_changed", targetId: String(user.id) },
      }),
    ).toBe(1);
    expect(
      (await call(request(h.app).post("/api/login").send({ login: user.username, password: TEST_PASSWORD })))
        .status,
    ).toBe(401);
    await signIn(user.username, NEW_PASSWORD);
  });
});
