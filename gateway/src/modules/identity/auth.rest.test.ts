import { identityAppFixture, prospectRegistration } from "@gateway/testing/fixtures";
import { leakedSecrets, sessionCookieOf } from "@gateway/testing/identityHarness";
import { permissions } from "@schema/api/permissions";
import { createAdmin, createUser, TEST_PASSWORD, uniqueSuffix } from "@services/shared/testing/factories";
import request from "supertest";

const h = identityAppFixture({ loginAccount: { free: 3, maxDelaySec: 2, memorySec: 60 } });

/** A request through the app whose answer is kept for the secrets scan. */
async function call(test: request.Test): Promise<request.Response> {
  const res = await test;
  h.bodies.push(res.text);
  return res;
}

function registration(overrides: Record<string, unknown> = {}) {
  const s = uniqueSuffix();
  return {
    ...prospectRegistration(`reg_${s}`, "Rita", "Register"),
    phone: "+1 (555) 123-4567",
    companyName: "Acme Receivables",
    ...overrides,
  };
}

async function login(loginName: string, password = TEST_PASSWORD) {
  return call(request(h.app).post("/api/login").send({ login: loginName, password }));
}

async function eventsOf(type: string, userId: number) {
  const rows = await h.db.prisma.outboxEvent.findMany({ where: { type }, orderBy: { createdAt: "asc" } });
  return rows
    .map((r) => r.envelope as { payload: Record<string, unknown> })
    .filter((e) => e.payload.userId === userId);
}

describe("GET /api/user", () => {
  it("answers 401 'Unauthorized - Please log in' when signed out", async () => {
    const res = await call(request(h.app).get("/api/user"));
    expect(res.status).toBe(401);
    expect(res.body.message).toBe("Unauthorized - Please log in");
  });

  it("answers the signed-in user without password or hash", async () => {
    const user = await createUser(h.db, { userType: "client" });
    const cookie = sessionCookieOf(await login(user.username));
    const res = await call(
      request(h.app)
        .get("/api/user")
        .set("Cookie", cookie ?? ""),
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: user.id,
      uniqueId: user.uniqueId,
      userType: "client",
      permissions: [],
    });
    expect(res.body).not.toHaveProperty("password");
    expect(res.body).not.toHaveProperty("resetToken");
  });
});

describe("POST /api/register", () => {
  it("refuses invalid input with the spec's messages per field", async () => {
    const res = await call(
      request(h.app)
        .post("/api/register")
        .send(registration({ username: "ab", password: "short", email: "nope" })),
    );
    expect(res.status).toBe(400);
    expect(res.body.errors.username).toEqual(["Username must be at least 3 characters"]);
    expect(res.body.errors.email).toEqual(["Please enter a valid email address"]);
    expect(res.body.errors.password).toContain("Password must be at least 8 characters");
  });

  it("refuses a common password without echoing it", async () => {
    const res = await call(
      request(h.app)
        .post("/api/register")
        .send(registration({ password: "P@ssw0rd123!" })),
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("This password is too common. Please choose another.");
    expect(res.text).not.toContain("P@ssw0rd123!");
  });

  it("refuses administrator kinds with 403", async () => {
    for (const userType of ["mainAdmin", "userAdmin"]) {
      const res = await call(request(h.app).post("/api/register").send(registration({ userType })));
      expect(res.status).toBe(403);
      expect(res.body.message).toBe("Administrator accounts are created by an administrator");
    }
  });

  it("refuses a taken username or email, whatever the case, with 409", async () => {
    const existing = await createUser(h.db);
    const byName = await call(
      request(h.app)
        .post("/api/register")
        .send(registration({ username: existing.username.toUpperCase() })),
    );
    expect(byName.status).toBe(409);
    expect(byName.body.message).toBe("Username already taken");
    const byEmail = await call(
      request(h.app)
        .post("/api/register")
        .send(registration({ email: existing.email.toUpperCase() })),
    );
    expect(byEmail.status).toBe(409);
    expect(byEmail.body.message).toBe("Email already registered");
  });

  it("creates the account, signs it in at once and emits user.registered with a sealed token", async () => {
    const input = registration({ userType: "client" });
    const res = await call(request(h.app).post("/api/register").send(input));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ username: input.username, userType: "user", emailVerified: false });
    const cookie = sessionCookieOf(res);
    expect(cookie).toBeDefined();
    const me = await call(
      request(h.app)
        .get("/api/user")
        .set("Cookie", cookie ?? ""),
    );
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(res.body.id);
    const [event] = await eventsOf("user.registered", res.body.id);
    expect(event?.payload).toMatchObject({ userId: res.body.id, userType: "user", email: input.email });
    expect(String(event?.payload.sealedToken)).toMatch(/^v1\./);
  });
});

describe("POST /api/login", () => {
  it("refuses a missing password with 400", async () => {
    const res = await call(request(h.app).post("/api/login").send({ login: "someone" }));
    expect(res.status).toBe(400);
  });

  it("answers 401 'Invalid login credentials' for an unknown account and a wrong password alike", async () => {
    const user = await createUser(h.db);
    const unknown = await login(`nobody_${uniqueSuffix()}`);
    const wrong = await login(user.username, "Wrong-password-1!");
    for (const res of [unknown, wrong]) {
      expect(res.status).toBe(401);
      expect(res.body.message).toBe("Invalid login credentials");
      expect(sessionCookieOf(res)).toBeUndefined();
    }
    const failures = await h.db.prisma.auditLog.findMany({
      where: { action: "user.login_failed", targetId: String(user.id) },
    });
    expect(failures).toHaveLength(1);
    expect(failures[0]?.ip).toBeTruthy();
  });

  it("answers 403 with the status for deactivated and archived accounts", async () => {
    const inactive = await createUser(h.db, { userStatus: "inactive" });
    const archived = await createUser(h.db, { userStatus: "archived" });
    const a = await login(inactive.username);
    expect(a.status).toBe(403);
    expect(a.body.status).toBe("deactivated");
    const b = await login(archived.email);
    expect(b.status).toBe(403);
    expect(b.body.status).toBe("archived");
  });

  it("answers 403 needsVerification for an unverified email", async () => {
    const user = await createUser(h.db, { emailVerified: false });
    const res = await login(user.username);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      needsVerification: true,
      message: "Please verify your email before logging in.",
    });
  });

  it("signs in by username or email (any case) with a new session id and the portal's cookie flags", async () => {
    const user = await createUser(h.db);
    const first = await login(user.email.toUpperCase());
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ id: user.id, username: user.username });
    const setCookie = String(first.headers["set-cookie"]);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).toMatch(/Path=\//);
    const c1 = sessionCookieOf(first) ?? "";

    // session fixation: logging in while carrying a session gives a new id, and the old one is dead
    const other = await createUser(h.db);
    const second = await call(
      request(h.app)
        .post("/api/login")
        .set("Cookie", c1)
        .send({ login: other.username, password: TEST_PASSWORD }),
    );
    expect(second.status).toBe(200);
    const c2 = sessionCookieOf(second) ?? "";
    expect(c2).not.toBe("");
    expect(c2).not.toBe(c1);
    expect((await call(request(h.app).get("/api/user").set("Cookie", c1))).status).toBe(401);
    expect((await call(request(h.app).get("/api/user").set("Cookie", c2))).body.id).toBe(other.id);

    const audit = await h.db.prisma.auditLog.findFirst({
      where: { action: "user.login_succeeded", actorId: other.id },
    });
    expect(audit).not.toBeNull();
  });

  it("slows a burst of bad logins with 429 and Retry-After, then lets the owner in", async () => {
    const user = await createUser(h.db);
    for (let i = 0; i < 4; i++) expect((await login(user.username, "Wrong-password-1!")).status).toBe(401);
    const limited = await login(user.username);
    expect(limited.status).toBe(429);
    expect(limited.body.message).toMatch(/^Too many attempts\. Please try again in \d+ seconds?\.$/);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    await new Promise((r) => setTimeout(r, Number(limited.headers["retry-after"]) * 1000 + 100));
    expect((await login(user.username)).status).toBe(200);
  });
});

describe("POST /api/logout and the session", () => {
  it("destroys the session: the cookie is cleared and replaying it is refused", async () => {
    const user = await createUser(h.db);
    const cookie = sessionCookieOf(await login(user.username)) ?? "";
    const check = await call(request(h.app).get("/api/session-check").set("Cookie", cookie));
    expect(check.status).toBe(200);
    expect(check.headers["cache-control"]).toBe("no-store");
    expect(check.body.active).toBe(true);

    const out = await call(request(h.app).post("/api/logout").set("Cookie", cookie));
    expect(out.status).toBe(200);
    expect(out.body.message).toBe("Logged out");
    expect(String(out.headers["set-cookie"])).toMatch(/portal\.sid=;/);

    expect((await call(request(h.app).get("/api/user").set("Cookie", cookie))).status).toBe(401);
    const after = await call(request(h.app).get("/api/session-check").set("Cookie", cookie));
    expect(after.status).toBe(401);
    expect(after.body.message).toBe("Session expired");
  });

  it("ends a session whose 12-hour absolute lifetime has passed", async () => {
    const user = await createUser(h.db);
    const cookie = sessionCookieOf(await login(user.username)) ?? "";
    const sid =
      decodeURIComponent(cookie.split("=")[1] ?? "")
        .slice(2)
        .split(".")[0] ?? "";
    const key = `${process.env.REDIS_PREFIX ?? "portal:"}sess:${sid}`;
    const stored = JSON.parse((await h.redis.get(key)) ?? "{}");
    stored.loginAt = Date.now() - 12 * 60 * 60 * 1000 - 1000;
    await h.redis.set(key, JSON.stringify(stored), { EX: 600 });
    expect((await call(request(h.app).get("/api/user").set("Cookie", cookie))).status).toBe(401);
  });
});

describe("GET /api/auth/check-permissions", () => {
  it("answers 401 when signed out", async () => {
    const res = await call(request(h.app).get("/api/auth/check-permissions?permissions=manage:users"));
    expect(res.status).toBe(401);
    expect(res.body.message).toBe("Unauthorized - Please log in");
  });

  const matrix: Record<string, { isAdmin: boolean; holds: string[] }> = {
    // the main admin holds every permission of spec §6
    mainAdmin: { isAdmin: true, holds: [...permissions] },
    userAdmin: {
      isAdmin: true,
      holds: [
        "manage:users",
        "read:all_documents",
        "approve:documents",
        "manage:esrt_sync",
        "manage:appointments",
      ],
    },
    client: { isAdmin: false, holds: [] },
    prospect: { isAdmin: false, holds: [] },
    user: { isAdmin: false, holds: [] },
  };

  it.each(Object.keys(matrix))("answers the matrix for a %s, one permission at a time", async (userType) => {
    const expected = matrix[userType] ?? { isAdmin: false, holds: [] };
    const user =
      userType === "mainAdmin" || userType === "userAdmin"
        ? await createAdmin(h.db, { userType })
        : await createUser(h.db, { userType: userType as "client" | "prospect" | "user" });
    const cookie = sessionCookieOf(await login(user.username)) ?? "";
    for (const permission of permissions) {
      const res = await call(
        request(h.app)
          .get("/api/auth/check-permissions")
          .query({ permissions: permission })
          .set("Cookie", cookie),
      );
      expect(res.status).toBe(200);
      expect(res.body.isAdmin).toBe(expected.isAdmin);
      expect(res.body.hasPermissions).toBe(expected.holds.includes(permission));
      expect([...res.body.exactPermissions].sort()).toEqual([...expected.holds].sort());
    }
    const both = await call(
      request(h.app)
        .get("/api/auth/check-permissions?permissions=manage:users&permissions=manage:config")
        .set("Cookie", cookie),
    );
    expect(both.body.hasPermissions).toBe(userType === "mainAdmin");
    const none = await call(request(h.app).get("/api/auth/check-permissions").set("Cookie", cookie));
    expect(none.body.hasPermissions).toBe(true);
  });
});

describe("cross-site requests (CSRF)", () => {
  it("refuses text/plain and form-encoded posts and changes nothing", async () => {
    const user = await createUser(h.db);
    const plain = await call(
      request(h.app)
        .post("/api/login")
        .set("Content-Type", "text/plain")
        .send(JSON.stringify({ login: user.username, password: TEST_PASSWORD })),
    );
    expect(plain.status).toBe(415);
    expect(sessionCookieOf(plain)).toBeUndefined();

    const input = registration();
    const form = await call(request(h.app).post("/api/register").type("form").send(input));
    expect(form.status).toBe(415);
    expect(await h.db.prisma.user.count({ where: { username: input.username } })).toBe(0);

    const cookie = sessionCookieOf(await login(user.username)) ?? "";
    const notes = await call(
      request(h.app).post("/api/user/notes").set("Cookie", cookie).type("form").send({ notes: "from evil" }),
    );
    expect(notes.status).toBe(415);
    const crossSite = await call(
      request(h.app)
        .post("/api/user/notes")
        .set("Cookie", cookie)
        .set("Origin", "https://evil.example")
        .send({ notes: "from evil" }),
    );
    expect(crossSite.status).toBe(403);
    expect(crossSite.body.message).toBe("Cross-site request refused");

    const gql = await call(
      request(h.app)
        .post("/graphql")
        .set("Cookie", cookie)
        .set("Content-Type", "text/plain")
        .send(JSON.stringify({ query: 'mutation { updateNotes(notes: "from evil") { __typename } }' })),
    );
    expect(gql.status).toBeGreaterThanOrEqual(400);
    expect((await h.db.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).notes).toBeNull();
  });
});

describe("answers", () => {
  it("never carried the password or a hash", () => {
    expect(h.bodies.length).toBeGreaterThan(20);
    expect(leakedSecrets(h.bodies)).toEqual([]);
  });
});
