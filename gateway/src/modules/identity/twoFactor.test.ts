import { identityAppFixture, identityGql, signInOk } from "@gateway/testing/fixtures";
import { sessionCookieOf } from "@gateway/testing/identityHarness";
import { createUser, TEST_PASSWORD } from "@services/shared/testing/factories";
import { totpCodeAt } from "@services/user";
import request from "supertest";

// Two-factor sign-in with an authenticator app and recovery codes (issue 20), on REST and GraphQL:
// set up with a fresh proof of identity, asked after the password before any session exists,
// each code accepted once, the pending step ending after five minutes. Codes are computed here as
// an authenticator app computes them.

const h = identityAppFixture({}, { noLeaks: true });

const STEP_MS = 30_000;

const CONFIRM = `mutation ($password: String) { confirmIdentity(method: password, password: $password) {
  ... on MutationConfirmIdentitySuccess { data } ... on AppError { code message } } }`;
const START = `mutation { startAuthenticator {
  ... on MutationStartAuthenticatorSuccess { data { secret otpauthUri } } ... on AppError { code message } } }`;
const CONFIRM_APP = `mutation ($code: String!) { confirmAuthenticator(code: $code) {
  ... on MutationConfirmAuthenticatorSuccess { data { recoveryCodes } } ... on AppError { code message } } }`;
const LOGIN = `mutation ($login: String!, $password: String!) { login(login: $login, password: $password) {
  ... on MutationLoginSuccess { data { twoFactorRequired methods user { id } } } ... on AppError { code message } } }`;
const LOGIN_2FA = `mutation ($method: SecondFactorMethod!, $code: String) { loginTwoFactor(method: $method, code: $code) {
  ... on MutationLoginTwoFactorSuccess { data { twoFactorRequired user { id username } } } ... on AppError { code message } } }`;

type Field = Record<string, unknown> & { data?: Record<string, unknown>; code?: string; message?: string };
const field = (answer: { data: Record<string, unknown> | null }, name: string) =>
  (answer.data?.[name] ?? {}) as Field;

/** A new client with an authenticator app set up; answers the user, its secret and recovery codes. */
async function enrolledClient() {
  const user = await createUser(h.db, { userType: "client" });
  const cookie = await signInOk(h.app, user.username);
  expect(
    field(await identityGql(h, CONFIRM, { password: TEST_PASSWORD }, cookie), "confirmIdentity").data,
  ).toEqual(expect.any(String));
  const setup = field(await identityGql(h, START, {}, cookie), "startAuthenticator").data as {
    secret: string;
    otpauthUri: string;
  };
  expect(setup.otpauthUri).toMatch(/^otpauth:\/\/totp\/.+\?.*secret=[A-Z2-7]+/);
  const confirmed = field(
    await identityGql(h, CONFIRM_APP, { code: totpCodeAt(setup.secret) }, cookie),
    "confirmAuthenticator",
  );
  const recoveryCodes = (confirmed.data as { recoveryCodes: string[] }).recoveryCodes;
  expect(recoveryCodes).toHaveLength(10);
  return { user, secret: setup.secret, recoveryCodes, cookie };
}

/** POST /api/login with the test password: the answer and the cookie of the pending session. */
async function passwordStep(username: string) {
  const res = await request(h.app).post("/api/login").send({ login: username, password: TEST_PASSWORD });
  return { res, cookie: sessionCookieOf(res) ?? "" };
}

describe("two-factor sign-in with an authenticator app", () => {
  it("asks for a code after the password, grants no session until it is given, and accepts each code once", async () => {
    const { user, secret } = await enrolledClient();
    const { res, cookie } = await passwordStep(user.username);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ twoFactorRequired: true, methods: ["totp", "recovery_code"] });
    // no signed-in session yet
    expect((await request(h.app).get("/api/user").set("Cookie", cookie)).status).toBe(401);

    const wrong = await request(h.app)
      .post("/api/login/two-factor")
      .set("Cookie", cookie)
      .send({ method: "totp", code: "000000" });
    expect(wrong.status).toBe(401);
    expect(wrong.body.message).toBe("Invalid two-factor code");

    // the next step's code: the one the set-up used is spent
    const code = totpCodeAt(secret, Date.now() + STEP_MS);
    const ok = await request(h.app)
      .post("/api/login/two-factor")
      .set("Cookie", cookie)
      .send({ method: "totp", code });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ id: user.id, username: user.username, permissions: expect.any(Array) });
    const signedIn = sessionCookieOf(ok) ?? "";
    expect((await request(h.app).get("/api/user").set("Cookie", signedIn)).status).toBe(200);

    // the same code again, in a new sign-in, within its window: refused
    const again = await passwordStep(user.username);
    const replay = await request(h.app)
      .post("/api/login/two-factor")
      .set("Cookie", again.cookie)
      .send({ method: "totp", code });
    expect(replay.status).toBe(401);
  });

  it("signs in with a recovery code once; the code is spent", async () => {
    const { user, recoveryCodes } = await enrolledClient();
    const code = recoveryCodes[3] ?? "";
    const first = await passwordStep(user.username);
    const ok = await request(h.app)
      .post("/api/login/two-factor")
      .set("Cookie", first.cookie)
      .send({ method: "recovery_code", code: code.toUpperCase() });
    expect(ok.status).toBe(200);
    expect(ok.body.id).toBe(user.id);

    const second = await passwordStep(user.username);
    const spent = await request(h.app)
      .post("/api/login/two-factor")
      .set("Cookie", second.cookie)
      .send({ method: "recovery_code", code });
    expect(spent.status).toBe(401);
  });

  it("refuses the second step without a pending sign-in, and after its five minutes", async () => {
    const { user, secret } = await enrolledClient();
    const none = await request(h.app)
      .post("/api/login/two-factor")
      .send({ method: "totp", code: totpCodeAt(secret, Date.now() + STEP_MS) });
    expect(none.status).toBe(401);
    expect(none.body.message).toBe("Your sign-in has expired. Please sign in again.");

    const { cookie } = await passwordStep(user.username);
    const later = Date.now() + 5 * 60 * 1000 + 1000;
    const clock = jest.spyOn(Date, "now").mockReturnValue(later);
    try {
      const expired = await request(h.app)
        .post("/api/login/two-factor")
        .set("Cookie", cookie)
        .send({ method: "totp", code: totpCodeAt(secret, later) });
      expect(expired.status).toBe(401);
      expect(expired.body.message).toBe("Your sign-in has expired. Please sign in again.");
    } finally {
      clock.mockRestore();
    }
  });

  it("mirrors both steps on GraphQL", async () => {
    const { user, secret } = await enrolledClient();
    const first = await identityGql(h, LOGIN, { login: user.username, password: TEST_PASSWORD });
    expect(field(first, "login").data).toEqual({
      twoFactorRequired: true,
      methods: ["totp", "recovery_code"],
      user: null,
    });
    const cookie = first.cookie ?? "";
    const second = await identityGql(
      h,
      LOGIN_2FA,
      { method: "totp", code: totpCodeAt(secret, Date.now() + STEP_MS) },
      cookie,
    );
    expect(field(second, "loginTwoFactor").data).toEqual({
      twoFactorRequired: false,
      user: { id: user.id, username: user.username },
    });
  });

  it("counts wrong codes with wrong passwords toward the account's sign-in delays, which a right password does not clear", async () => {
    const { user } = await enrolledClient();
    const wrongCode = async () => {
      const { cookie } = await passwordStep(user.username);
      return request(h.app)
        .post("/api/login/two-factor")
        .set("Cookie", cookie)
        .send({ method: "totp", code: "000000" });
    };
    // five failures from one address are free (the settings' default), each after a right password
    for (let i = 0; i < 5; i++) expect((await wrongCode()).status).toBe(401);
    const sixth = await wrongCode();
    expect(sixth.status).toBe(401);
    // the delay now holds the account from this address: even the right password waits
    const delayed = await request(h.app)
      .post("/api/login")
      .send({ login: user.username, password: TEST_PASSWORD });
    expect(delayed.status).toBe(429);
    expect(delayed.body.message).toMatch(/^Too many attempts\. Please try again in \d+ (second|seconds)\.$/);
  });

  it("keeps the spec's login body for a user without a second factor", async () => {
    const user = await createUser(h.db, { userType: "client" });
    const res = await request(h.app)
      .post("/api/login")
      .send({ login: user.username, password: TEST_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: user.id, username: user.username });
    expect(res.body).not.toHaveProperty("twoFactorRequired");
  });
});
