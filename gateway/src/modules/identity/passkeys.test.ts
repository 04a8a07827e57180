import { identityAppFixture, identityGql, signInOk } from "@gateway/testing/fixtures";
import { sessionCookieOf } from "@gateway/testing/identityHarness";
import { SoftAuthenticator } from "@gateway/testing/softAuthenticator";
import { createUser, TEST_PASSWORD } from "@services/shared/testing/factories";
import request from "supertest";

// Passkeys (issue 20) through the API, with an authenticator in software: added after a fresh
// proof of identity, asked as the second factor of a password sign-in, or signing in alone (then
// only when the authenticator verified its user); a challenge serves once, a passkey signs in only
// its own user, and a counter that does not move forward is refused. The browser flows, with
// Chromium's virtual authenticator, are in e2e/.

const h = identityAppFixture({}, { noLeaks: true });
const ORIGIN = "http://localhost";

type Field = Record<string, unknown> & { data?: unknown; code?: string; message?: string };
const field = (answer: { data: Record<string, unknown> | null }, name: string) =>
  (answer.data?.[name] ?? {}) as Field;

/** A REST call as a browser on the portal's page sends it (the RP ID is the page's host). */
const post = (path: string, cookie = "") =>
  request(h.app).post(path).set("Host", "localhost").set("Cookie", cookie);
const gql = (query: string, variables: Record<string, unknown>, cookie: string) =>
  identityGql(h, query, variables, cookie, { Host: "localhost" });

const OPTIONS = `mutation { passkeyRegistrationOptions {
  ... on MutationPasskeyRegistrationOptionsSuccess { data } ... on AppError { code message } } }`;
const ADD = `mutation ($name: String!, $response: JSON!) { addPasskey(name: $name, response: $response) {
  ... on MutationAddPasskeySuccess { data { recoveryCodes passkey { id name lastUsedAt } } } ... on AppError { code message } } }`;
const STATUS = "{ twoFactorStatus { enabled passkeys { id name lastUsedAt } recoveryCodesLeft } }";

/** A new client with one passkey on `authenticator`; answers the user, the passkey's id and the cookie. */
async function clientWithPasskey(authenticator = new SoftAuthenticator(ORIGIN)) {
  const user = await createUser(h.db, { userType: "client" });
  const cookie = await signInOk(h.app, user.username);

  const options = field(await gql(OPTIONS, {}, cookie), "passkeyRegistrationOptions").data as Parameters<
    SoftAuthenticator["create"]
  >[0];
  const added = field(
    await gql(ADD, { name: "Work laptop", response: authenticator.create(options) }, cookie),
    "addPasskey",
  );
  const data = added.data as { recoveryCodes: string[]; passkey: { id: number; name: string } };
  expect(data.passkey.name).toBe("Work laptop");
  expect(data.recoveryCodes).toHaveLength(10);
  return { user, authenticator, passkeyId: data.passkey.id, cookie };
}

/** The password step of a sign-in: its answer and the pending session's cookie. */
async function passwordStep(username: string) {
  const res = await post("/api/login").send({ login: username, password: TEST_PASSWORD });
  return { body: res.body as Record<string, unknown>, cookie: sessionCookieOf(res) ?? "" };
}

describe("passkeys", () => {
  it("are added once the browser's answer holds, and sign in as the second factor", async () => {
    const { user, authenticator } = await clientWithPasskey();
    const { body, cookie } = await passwordStep(user.username);
    expect(body).toEqual({ twoFactorRequired: true, methods: ["passkey", "recovery_code"] });

    const options = await post("/api/login/two-factor/passkey-options", cookie).send({});
    expect(options.status).toBe(200);
    expect(options.body.allowCredentials).toHaveLength(1);
    const answer = authenticator.get(options.body);
    const ok = await post("/api/login/two-factor", cookie).send({ method: "passkey", response: answer });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ id: user.id, username: user.username });

    // its last use shows on the owner's page, and the change was told to the owner by email
    const status = field(await gql(STATUS, {}, sessionCookieOf(ok) ?? ""), "twoFactorStatus") as {
      passkeys?: { lastUsedAt: string | null }[];
    };
    expect(status.passkeys?.[0]?.lastUsedAt).toEqual(expect.any(String));
    const events = await h.db.prisma.outboxEvent.findMany({ where: { type: "user.two_factor_changed" } });
    expect(
      events.some((e) => {
        const payload = (e.envelope as { payload: Record<string, unknown> }).payload;
        return (
          payload.userId === user.id &&
          payload.change === "passkey_added" &&
          payload.passkeyName === "Work laptop"
        );
      }),
    ).toBe(true);
  });

  it("refuses an answer to a challenge already used, another user's passkey, and a counter that went back", async () => {
    const { user, authenticator } = await clientWithPasskey();
    const other = await clientWithPasskey();

    const first = await passwordStep(user.username);
    const options = (await post("/api/login/two-factor/passkey-options", first.cookie).send({})).body;
    const answer = authenticator.get(options);
    expect(
      (await post("/api/login/two-factor", first.cookie).send({ method: "passkey", response: answer }))
        .status,
    ).toBe(200);

    // the same answer in a new sign-in: its challenge is spent
    const second = await passwordStep(user.username);
    await post("/api/login/two-factor/passkey-options", second.cookie).send({});
    const replay = await post("/api/login/two-factor", second.cookie).send({
      method: "passkey",
      response: answer,
    });
    expect(replay.status).toBe(401);

    // another user's passkey, answering this sign-in's challenge
    const third = await passwordStep(user.username);
    const thirdOptions = (await post("/api/login/two-factor/passkey-options", third.cookie).send({})).body;
    const foreign = other.authenticator.get({ ...thirdOptions, allowCredentials: undefined });
    expect(
      (await post("/api/login/two-factor", third.cookie).send({ method: "passkey", response: foreign }))
        .status,
    ).toBe(401);

    // a counter that did not move forward (a cloned authenticator)
    const fourth = await passwordStep(user.username);
    const fourthOptions = (await post("/api/login/two-factor/passkey-options", fourth.cookie).send({})).body;
    const stale = authenticator.get(fourthOptions, { step: 0 });
    expect(
      (await post("/api/login/two-factor", fourth.cookie).send({ method: "passkey", response: stale }))
        .status,
    ).toBe(401);
  });

  it("sign in alone only when the authenticator verified its user", async () => {
    const { user, authenticator } = await clientWithPasskey();
    const options = await post("/api/login/passkey/options").send({});
    expect(options.status).toBe(200);
    expect(options.body.userVerification).toBe("required");
    const cookie = sessionCookieOf(options) ?? "";
    const ok = await post("/api/login/passkey", cookie).send({ response: authenticator.get(options.body) });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ id: user.id });

    authenticator.userVerified = false;
    const again = await post("/api/login/passkey/options").send({});
    const refused = await post("/api/login/passkey", sessionCookieOf(again) ?? "").send({
      response: authenticator.get(again.body),
    });
    expect(refused.status).toBe(401);
    expect(refused.body.message).toBe(
      "That passkey could not sign you in. Try again, or sign in with your password.",
    );
  });

  it("offer a passkey sign-in to a browser whose old session was revoked, in a fresh session", async () => {
    // the session the passkey was added in
    const { user, authenticator, cookie: stale } = await clientWithPasskey();
    // "sign everyone out": the cookie the browser still sends names a revoked session
    await h.db.prisma.user.update({
      where: { id: user.id },
      data: { sessionsValidAfter: new Date(Date.now() + 5) },
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    const options = await post("/api/login/passkey/options", stale).send({});
    expect(options.status).toBe(200);
    // the old cookie cleared, then the fresh session's set (a browser keeps the last)
    const setCookies = ([] as string[]).concat(options.headers["set-cookie"] ?? []);
    expect(setCookies[0]).toMatch(/^portal\.sid=;/);
    const fresh = setCookies.at(-1)?.split(";")[0] ?? "";
    expect(fresh).toMatch(/^portal\.sid=s%3A/);
    expect(fresh).not.toBe(stale);
    const ok = await post("/api/login/passkey", fresh).send({ response: authenticator.get(options.body) });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ id: user.id });

    const graphql = await gql(
      "mutation { passkeySignInOptions { ... on MutationPasskeySignInOptionsSuccess { data } ... on AppError { code } } }",
      {},
      stale,
    );
    expect(field(graphql, "passkeySignInOptions").data).toMatchObject({ userVerification: "required" });
  });

  it("refuses an answer made for another origin", async () => {
    const user = await createUser(h.db, { userType: "client" });
    const cookie = await signInOk(h.app, user.username);

    const options = field(await gql(OPTIONS, {}, cookie), "passkeyRegistrationOptions").data as Parameters<
      SoftAuthenticator["create"]
    >[0];
    const phished = new SoftAuthenticator(ORIGIN).create(options, "https://portal.example.evil");
    const added = field(await gql(ADD, { name: "Phone", response: phished }, cookie), "addPasskey");
    expect(added).toMatchObject({
      code: "VALIDATION_FAILED",
      message: "The passkey could not be added. Please try again.",
    });
    expect(await h.db.prisma.passkey.count({ where: { userId: user.id } })).toBe(0);
  });
});
