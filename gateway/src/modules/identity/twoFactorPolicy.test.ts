import { isolatedAppFixture, postGraphql, refusal } from "@gateway/testing/fixtures";
import { sessionCookieOf } from "@gateway/testing/identityHarness";
import type { UserType } from "@services/shared/generated/prisma/enums";
import { createAdmin, createUser, TEST_PASSWORD } from "@services/shared/testing/factories";
import { totpCodeAt } from "@services/user";
import request from "supertest";

// Who may do what with two-factor sign-in (issue 20), and the policy of /admin/security: every new
// operation against every user type and the signed out; changes only after a fresh proof of
// identity; a mainAdmin's reset of another user's (never their own); and a user whom the settings
// require to hold a second factor signed in to enrolment only, on REST and GraphQL, until done. A
// database of the file's own: it switches the settings.

const h = isolatedAppFixture();
const STEP_MS = 30_000;
const TYPES: UserType[] = ["mainAdmin", "userAdmin", "client", "prospect", "user"];

const gql = (query: string, cookie: string, variables: Record<string, unknown> = {}) =>
  postGraphql(h.app, query, cookie, variables);
const ok = (name: string) => `... on Mutation${name[0]?.toUpperCase()}${name.slice(1)}Success { __typename }`;
const FAIL = "... on AppError { __typename code message }";

/** Every owner operation: [query, field], each mutation asking for its typed result. */
const OWNER_OPERATIONS: [string, string][] = [
  ["{ twoFactorStatus { enabled } }", "twoFactorStatus"],
  [
    `mutation { confirmIdentity(method: password, password: "x") { ${ok("confirmIdentity")} ${FAIL} } }`,
    "confirmIdentity",
  ],
  [
    `mutation { confirmIdentityPasskeyOptions { ${ok("confirmIdentityPasskeyOptions")} ${FAIL} } }`,
    "confirmIdentityPasskeyOptions",
  ],
  [`mutation { startAuthenticator { ${ok("startAuthenticator")} ${FAIL} } }`, "startAuthenticator"],
  [
    `mutation { confirmAuthenticator(code: "123456") { ${ok("confirmAuthenticator")} ${FAIL} } }`,
    "confirmAuthenticator",
  ],
  [`mutation { removeAuthenticator { ${ok("removeAuthenticator")} ${FAIL} } }`, "removeAuthenticator"],
  [
    `mutation { passkeyRegistrationOptions { ${ok("passkeyRegistrationOptions")} ${FAIL} } }`,
    "passkeyRegistrationOptions",
  ],
  [`mutation { addPasskey(name: "k", response: {}) { ${ok("addPasskey")} ${FAIL} } }`, "addPasskey"],
  [`mutation { renamePasskey(id: 1, name: "k") { ${ok("renamePasskey")} ${FAIL} } }`, "renamePasskey"],
  [`mutation { removePasskey(id: 1) { ${ok("removePasskey")} ${FAIL} } }`, "removePasskey"],
  [
    `mutation { regenerateRecoveryCodes { ${ok("regenerateRecoveryCodes")} ${FAIL} } }`,
    "regenerateRecoveryCodes",
  ],
  [`mutation { turnOffTwoFactor { ${ok("turnOffTwoFactor")} ${FAIL} } }`, "turnOffTwoFactor"],
];
/** The changes that need a proof of identity from the last five minutes. */
const NEED_PROOF = [
  "startAuthenticator",
  "confirmAuthenticator",
  "removeAuthenticator",
  "passkeyRegistrationOptions",
  "addPasskey",
  "removePasskey",
  "regenerateRecoveryCodes",
  "turnOffTwoFactor",
];
const RESET = (userId: number) =>
  `mutation { adminResetTwoFactor(userId: ${userId}) { ${ok("adminResetTwoFactor")} ${FAIL} } }`;
const ADMIN_VIEW = (userId: number) =>
  `{ adminUserTwoFactor(id: ${userId}) { enabled authenticator passkeys } }`;

async function signIn(username: string) {
  const res = await request(h.app).post("/api/login").send({ login: username, password: TEST_PASSWORD });
  return { body: res.body as Record<string, unknown>, cookie: sessionCookieOf(res) ?? "" };
}

async function userOf(userType: UserType) {
  const user =
    userType === "mainAdmin" || userType === "userAdmin"
      ? await createAdmin(h.db, { userType })
      : await createUser(h.db, { userType });
  const { cookie } = await signIn(user.username);
  return { user, cookie };
}

/** Sets up an authenticator app for the session's user; answers its secret. */
async function enrolAuthenticator(cookie: string): Promise<string> {
  const started = await gql(
    `mutation { startAuthenticator { ... on MutationStartAuthenticatorSuccess { data { secret } } ${FAIL} } }`,
    cookie,
  );
  const secret =
    (started.data?.startAuthenticator as { data?: { secret: string } } | undefined)?.data?.secret ?? "";
  const confirmed = await gql(
    `mutation ($code: String!) { confirmAuthenticator(code: $code) { ${ok("confirmAuthenticator")} ${FAIL} } }`,
    cookie,
    { code: totpCodeAt(secret) },
  );
  expect((confirmed.data?.confirmAuthenticator as { __typename?: string } | undefined)?.__typename).toBe(
    "MutationConfirmAuthenticatorSuccess",
  );
  return secret;
}

/** Signs in with the password and the authenticator's next code; answers the full session's cookie. */
async function signInWithCode(username: string, secret: string): Promise<string> {
  const { body, cookie } = await signIn(username);
  expect(body).toMatchObject({ twoFactorRequired: true });
  const res = await request(h.app)
    .post("/api/login/two-factor")
    .set("Cookie", cookie)
    .send({ method: "totp", code: totpCodeAt(secret, Date.now() + STEP_MS) });
  expect(res.status).toBe(200);
  return sessionCookieOf(res) ?? "";
}

const SETTINGS = `{ securitySettings { requireVerifiedEmail revealUnknownAccounts requireEnhancedForAdmins
  minPasswordLength loginIpAttempts loginAccountFreeFailures loginAccountMaxDelayMinutes } }`;

/** Saves the security settings with the two-factor switches `change`; answers the typed result. */
async function saveSettings(cookie: string, change: Record<string, boolean>) {
  const current = (await gql(SETTINGS, cookie)).data?.securitySettings as Record<string, unknown>;
  const res = await gql(
    `mutation ($input: SecuritySettingsInput!) { updateSecuritySettings(input: $input) {
      ... on MutationUpdateSecuritySettingsSuccess { data { requireTwoFactorForAdmins requireTwoFactorForEveryone } }
      ${FAIL} } }`,
    cookie,
    { input: { ...current, ...change } },
  );
  return res.data?.updateSecuritySettings as {
    data?: Record<string, boolean>;
    code?: string;
    message?: string;
  };
}

describe("the owner's operations", () => {
  it("are refused to the signed out", async () => {
    for (const [query, name] of OWNER_OPERATIONS)
      expect([name, refusal(await gql(query, ""), name)]).toEqual([name, "UNAUTHENTICATED"]);
  });

  it.each(TYPES)(
    "are open to a signed-in %s, changes only after a proof of identity from the last five minutes",
    async (userType) => {
      const { cookie } = await userOf(userType);
      const status = await gql("{ twoFactorStatus { enabled required confirmedUntil } }", cookie);
      expect(status.data?.twoFactorStatus).toMatchObject({
        enabled: false,
        required: false,
        confirmedUntil: expect.any(String),
      });

      const later = Date.now() + 5 * 60 * 1000 + 1000;
      const clock = jest.spyOn(Date, "now").mockReturnValue(later);
      try {
        for (const [query, name] of OWNER_OPERATIONS.filter(([, n]) => NEED_PROOF.includes(n))) {
          const answer = (await gql(query, cookie)).data?.[name] as { code?: string; message?: string };
          expect([name, answer]).toEqual([
            name,
            expect.objectContaining({
              code: "FORBIDDEN",
              message: "Confirm it's you to change two-factor sign-in.",
            }),
          ]);
        }
        const wrong = await gql(
          `mutation { confirmIdentity(method: password, password: "not it") { ${ok("confirmIdentity")} ${FAIL} } }`,
          cookie,
        );
        expect(wrong.data?.confirmIdentity).toMatchObject({
          code: "VALIDATION_FAILED",
          message: "The password is incorrect",
        });
        const right = await gql(
          `mutation ($p: String) { confirmIdentity(method: password, password: $p) { ${ok("confirmIdentity")} ${FAIL} } }`,
          cookie,
          { p: TEST_PASSWORD },
        );
        expect(right.data?.confirmIdentity).toMatchObject({ __typename: "MutationConfirmIdentitySuccess" });
        const start = await gql(OWNER_OPERATIONS[3]?.[0] ?? "", cookie);
        expect(start.data?.startAuthenticator).toMatchObject({
          __typename: "MutationStartAuthenticatorSuccess",
        });
      } finally {
        clock.mockRestore();
      }
    },
  );

  it("never reach another user's passkey", async () => {
    const owner = await userOf("client");
    const passkey = await h.db.prisma.passkey.create({
      data: {
        userId: owner.user.id,
        credentialId: `cred-${owner.user.id}`,
        publicKey: Buffer.from("k"),
        name: "Phone",
      },
    });
    const other = await userOf("mainAdmin");
    for (const query of [
      `mutation { renamePasskey(id: ${passkey.id}, name: "Mine now") { ${ok("renamePasskey")} ${FAIL} } }`,
      `mutation { removePasskey(id: ${passkey.id}) { ${ok("removePasskey")} ${FAIL} } }`,
    ]) {
      const answer = await gql(query, other.cookie);
      const field = Object.values(answer.data ?? {})[0];
      expect(field).toMatchObject({ code: "NOT_FOUND", message: "Passkey not found" });
    }
    expect(await h.db.prisma.passkey.findUnique({ where: { id: passkey.id } })).toMatchObject({
      name: "Phone",
    });
  });
});

describe("a mainAdmin's reset of another user's two-factor sign-in", () => {
  it("is theirs alone, never for their own, audited and told to the user", async () => {
    const target = await userOf("client");
    await enrolAuthenticator(target.cookie);
    expect(refusal(await gql(RESET(target.user.id), ""), "adminResetTwoFactor")).toBe("UNAUTHENTICATED");
    expect(refusal(await gql(ADMIN_VIEW(target.user.id), ""), "adminUserTwoFactor")).toBe("UNAUTHENTICATED");
    for (const userType of ["userAdmin", "client", "prospect", "user"] as const) {
      const { cookie } = await userOf(userType);
      expect([userType, refusal(await gql(RESET(target.user.id), cookie), "adminResetTwoFactor")]).toEqual([
        userType,
        "FORBIDDEN",
      ]);
      // what a user holds is for those who manage users: the administrators
      const view = await gql(ADMIN_VIEW(target.user.id), cookie);
      expect([userType, refusal(view, "adminUserTwoFactor") ?? "allowed"]).toEqual([
        userType,
        userType === "userAdmin" ? "allowed" : "FORBIDDEN",
      ]);
    }
    expect(
      (await gql(ADMIN_VIEW(target.user.id), (await userOf("userAdmin")).cookie)).data?.adminUserTwoFactor,
    ).toEqual({
      enabled: true,
      authenticator: true,
      passkeys: 0,
    });

    const main = await userOf("mainAdmin");
    await enrolAuthenticator(main.cookie);
    const own = (await gql(RESET(main.user.id), main.cookie)).data?.adminResetTwoFactor;
    expect(own).toMatchObject({ code: "FORBIDDEN" });
    expect((await gql(RESET(target.user.id), main.cookie)).data?.adminResetTwoFactor).toMatchObject({
      __typename: "MutationAdminResetTwoFactorSuccess",
    });
    // the password alone signs the user in again; the reset is audited and emailed
    expect((await signIn(target.user.username)).body).toMatchObject({ id: target.user.id });
    const audit = await h.db.prisma.auditLog.findFirst({
      where: { action: "user.two_factor_two_factor_reset", targetId: String(target.user.id) },
    });
    expect(audit?.actorId).toBe(main.user.id);
    const event = await h.db.prisma.outboxEvent.findFirst({
      where: { type: "user.two_factor_changed" },
      orderBy: { createdAt: "desc" },
    });
    expect((event?.envelope as { payload?: Record<string, unknown> } | undefined)?.payload).toMatchObject({
      userId: target.user.id,
      change: "two_factor_reset",
    });
  });
});

describe("requiring two-factor sign-in", () => {
  it("needs the saving administrator's own second factor, then holds administrators to the enrolment page until they enrol", async () => {
    const main = await userOf("mainAdmin");
    expect(await saveSettings(main.cookie, { requireTwoFactorForAdmins: true })).toMatchObject({
      code: "VALIDATION_FAILED",
      message: "Set up your own two-factor sign-in before requiring it",
    });
    const secret = await enrolAuthenticator(main.cookie);
    expect((await saveSettings(main.cookie, { requireTwoFactorForAdmins: true })).data).toEqual({
      requireTwoFactorForAdmins: true,
      requireTwoFactorForEveryone: false,
    });

    // an administrator without a second factor: signed in to enrolment only
    const admin = await createAdmin(h.db, { userType: "userAdmin" });
    const { body, cookie } = await signIn(admin.username);
    expect(body).toMatchObject({ id: admin.id, needsTwoFactorEnrolment: true });
    expect((await request(h.app).get("/api/user").set("Cookie", cookie)).body).toMatchObject({
      needsTwoFactorEnrolment: true,
    });
    const refused = await request(h.app).get("/api/auth/check-permissions").set("Cookie", cookie);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      message: "Set up two-factor sign-in to continue.",
      needsTwoFactorEnrolment: true,
    });
    const gqlRefused = await gql("{ adminUser(id: 1) { id } }", cookie);
    expect(gqlRefused.errors?.[0]).toMatchObject({ message: "Set up two-factor sign-in to continue." });
    expect((await gql("{ twoFactorStatus { required enabled } }", cookie)).data?.twoFactorStatus).toEqual({
      required: true,
      enabled: false,
    });

    // enrolled: a full session from that request on; turning it off is refused while required
    await enrolAuthenticator(cookie);
    expect((await request(h.app).get("/api/auth/check-permissions").set("Cookie", cookie)).status).toBe(200);
    expect((await request(h.app).get("/api/user").set("Cookie", cookie)).body).not.toHaveProperty(
      "needsTwoFactorEnrolment",
    );
    expect((await gql(OWNER_OPERATIONS[11]?.[0] ?? "", cookie)).data?.turnOffTwoFactor).toMatchObject({
      code: "CONFLICT",
      message: "Two-factor sign-in is required for your account.",
    });

    // a client is not held, until the settings require it of everyone
    const client = await createUser(h.db, { userType: "client" });
    expect((await signIn(client.username)).body).not.toHaveProperty("needsTwoFactorEnrolment");
    const mainCookie = await signInWithCode(main.user.username, secret);
    expect((await saveSettings(mainCookie, { requireTwoFactorForEveryone: true })).data).toMatchObject({
      requireTwoFactorForEveryone: true,
    });
    expect((await signIn(client.username)).body).toMatchObject({ needsTwoFactorEnrolment: true });
    await saveSettings(mainCookie, { requireTwoFactorForEveryone: false, requireTwoFactorForAdmins: false });
  });
});
