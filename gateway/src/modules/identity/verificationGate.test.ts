import { isolatedAppFixture, postGraphql } from "@gateway/testing/fixtures";
import { sessionCookieOf } from "@gateway/testing/identityHarness";
import { unseal } from "@services/shared/sealed";
import { createAdmin, createUser, TEST_PASSWORD, uniqueSuffix } from "@services/shared/testing/factories";
import { getSecuritySettings, updateSecuritySettings } from "@services/user";
import request from "supertest";

// "Require a verified email" (issue 20): a new registrant's session, whose address is not verified
// yet, may read its own account, verify, ask for a new link and sign out, and nothing else, on REST
// and GraphQL alike, until the link is followed. A database of the file's own: it switches the
// setting.

const h = isolatedAppFixture();
const VERIFY_FIRST = "Please verify your email to continue. Check your inbox for the verification link.";

/**
 * Switches the setting as an administrator's save does (updateSecuritySettings), which clears this
 * process's 5 s settings cache: the app on h.db follows it at its next request.
 */
async function requireVerifiedEmail(on: boolean): Promise<void> {
  const admin = await createAdmin(h.db);
  await updateSecuritySettings({
    db: h.db,
    actor: { id: admin.id, name: `${admin.firstName} ${admin.lastName}` },
    input: { ...(await getSecuritySettings(h.db)), requireVerifiedEmail: on },
  });
}

/** Registers a new client; answers its id, session cookie and the answer's body. */
async function register() {
  const name = `gate_${uniqueSuffix()}`;
  const res = await request(h.app)
    .post("/api/register")
    .send({
      username: name,
      email: `${name}@example.test`,
      password: TEST_PASSWORD,
      firstName: "Gale",
      lastName: "Gate",
      userType: "client",
    });
  expect(res.status).toBe(201);
  const cookie = sessionCookieOf(res) ?? "";
  expect(cookie).not.toBe("");
  return { id: res.body.id as number, cookie, body: res.body as Record<string, unknown> };
}

/** The token of the latest `type` event of `userId` (sealed in the event's payload). */
async function tokenOf(type: string, userId: number): Promise<string> {
  const rows = await h.db.prisma.outboxEvent.findMany({ where: { type }, orderBy: { createdAt: "desc" } });
  const payload = rows
    .map((r) => (r.envelope as { payload: { userId: number; sealedToken: string } }).payload)
    .find((p) => p.userId === userId);
  if (!payload) throw new Error(`no ${type} event of user ${userId}`);
  return unseal(payload.sealedToken);
}

function expectVerifyFirst(res: request.Response): void {
  expect(res.status).toBe(403);
  expect(res.body).toMatchObject({ message: VERIFY_FIRST, needsVerification: true });
}

describe("a session whose email must be verified first", () => {
  it("reads its own account, and is refused everything else on REST until the link is followed", async () => {
    const { id, cookie, body } = await register();
    expect(body).toMatchObject({ id, emailVerified: false, needsVerification: true });

    const me = await request(h.app).get("/api/user").set("Cookie", cookie);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id, needsVerification: true });
    expect((await request(h.app).get("/api/session-check").set("Cookie", cookie)).status).toBe(200);

    expectVerifyFirst(
      await request(h.app).post("/api/user/notes").set("Cookie", cookie).send({ notes: "hi" }),
    );
    expectVerifyFirst(await request(h.app).get("/api/appointments/mine").set("Cookie", cookie));
    expectVerifyFirst(
      await request(h.app)
        .post("/api/appointments")
        .set("Cookie", cookie)
        .send({ appointmentType: "phone", dateTime: new Date(Date.now() + 86_400_000).toISOString() }),
    );
    const upload = await request(h.app)
      .post("/api/uploads")
      .set("Cookie", cookie)
      .set("Tus-Resumable", "1.0.0")
      .set("Upload-Length", "10");
    expect(upload.status).toBe(403);
    expect(upload.text).toBe(VERIFY_FIRST);
    expectVerifyFirst(await request(h.app).get(`/api/users/by-uniqueid/U-${id}`).set("Cookie", cookie));
    const stored = await h.db.prisma.user.findUniqueOrThrow({ where: { id } });
    expect(stored.notes).toBeNull();
    expect(await h.db.prisma.upload.count({ where: { userId: id } })).toBe(0);

    // it may ask for a new link for its own address, and follow it
    const resend = await request(h.app).post("/api/verify-email/resend").set("Cookie", cookie).send({});
    expect(resend.status).toBe(200);
    const token = await tokenOf("user.verification_requested", id);
    const verified = await request(h.app).post("/api/verify-email").set("Cookie", cookie).send({ token });
    expect(verified.status).toBe(200);

    // the same session is a full one now
    const after = await request(h.app).get("/api/user").set("Cookie", cookie);
    expect(after.body).toMatchObject({ id, emailVerified: true });
    expect(after.body.needsVerification).toBeUndefined();
    const notes = await request(h.app).post("/api/user/notes").set("Cookie", cookie).send({ notes: "hi" });
    expect(notes.status).toBe(200);
  });

  it("is refused the same on GraphQL, where `me` still answers", async () => {
    const { id, cookie } = await register();
    const me = await postGraphql(h.app, "{ me { id emailVerified needsVerification } }", cookie);
    expect(me.data?.me).toEqual({ id, emailVerified: false, needsVerification: true });

    const appointments = await postGraphql(h.app, "{ myAppointments { id } }", cookie);
    expect(appointments.errors?.[0]).toMatchObject({
      message: VERIFY_FIRST,
      extensions: { code: "FORBIDDEN", needsVerification: true },
    });
    const notes = await postGraphql(
      h.app,
      `mutation { updateNotes(notes: "hi") { __typename ... on AppError { code message } } }`,
      cookie,
    );
    expect(notes.errors?.[0]).toMatchObject({
      message: VERIFY_FIRST,
      extensions: { code: "FORBIDDEN", needsVerification: true },
    });
    const changed = await postGraphql(
      h.app,
      `mutation { changePassword(currentPassword: "${TEST_PASSWORD}", newPassword: "Another-Pass-77!") { __typename } }`,
      cookie,
    );
    expect(JSON.stringify(changed)).toContain(VERIFY_FIRST);
    expect((await h.db.prisma.user.findUniqueOrThrow({ where: { id } })).notes).toBeNull();

    const token = await tokenOf("user.registered", id);
    const verified = await postGraphql(
      h.app,
      `mutation ($token: String!) { verifyEmail(token: $token) { __typename } }`,
      cookie,
      { token },
    );
    expect(verified.errors).toBeUndefined();
    const full = await postGraphql(h.app, "{ myAppointments { id } }", cookie);
    expect(full.errors).toBeUndefined();

    // and it signs out
    const out = await postGraphql(h.app, "mutation { logout }", cookie);
    expect(out.data).toEqual({ logout: true });
  });

  it("limits a signed-in session whose address became unverified, and nobody once the setting is off", async () => {
    const user = await createUser(h.db, { userType: "client" });
    const login = await request(h.app)
      .post("/api/login")
      .send({ login: user.username, password: TEST_PASSWORD });
    const cookie = sessionCookieOf(login) ?? "";
    // an administrator moved the account to a new address, not verified yet
    await h.db.prisma.user.update({ where: { id: user.id }, data: { emailVerified: false } });
    expectVerifyFirst(await request(h.app).get("/api/appointments/mine").set("Cookie", cookie));

    await requireVerifiedEmail(false);
    try {
      expect((await request(h.app).get("/api/appointments/mine").set("Cookie", cookie)).status).toBe(200);
      const { cookie: fresh, body } = await register();
      expect(body.needsVerification).toBeUndefined();
      expect((await request(h.app).get("/api/appointments/mine").set("Cookie", fresh)).status).toBe(200);
    } finally {
      await requireVerifiedEmail(true);
    }
  });
});
