import { expectRefusals, graphqlClient, isolatedAppFixture, refusedCallers } from "@gateway/testing/fixtures";
import { sessionCookieOf } from "@gateway/testing/identityHarness";
import { boundsMessage } from "@schema/validation/security";
import {
  createSecurityQuestions,
  createUser,
  TEST_PASSWORD,
  uniqueSuffix,
} from "@services/shared/testing/factories";
import { acceptInvitation, issueToken, OWN_QUESTIONS_FIRST_MESSAGE, resetPassword } from "@services/user";
import request from "supertest";

// The security settings (issue 12) on a database of their own (security_settings is read by every
// sign-in of the run): who may read and change them, the shared schema's bounds, the audit rows, and
// each setting applied at the next sign-in, registration or password change without a restart.

const harness = isolatedAppFixture();

let ipCounter = 0;
/** A client address of its own, so that one test's failed sign-ins never slow another's. */
function freshIp(): string {
  ipCounter += 1;
  return `10.77.${Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`;
}

const gql = graphqlClient(harness);

function login(loginName: string, password = TEST_PASSWORD, ip = freshIp()) {
  return request(harness.app)
    .post("/api/login")
    .set("X-Forwarded-For", ip)
    .send({ login: loginName, password });
}

async function signInAs(user: { username: string }): Promise<string> {
  const res = await login(user.username);
  const cookie = sessionCookieOf(res);
  if (!cookie) throw new Error(`sign-in failed: ${res.status} ${res.text}`);
  return cookie;
}

async function signIn(userType: "client" | "prospect" | "userAdmin" | "mainAdmin"): Promise<string> {
  return signInAs(
    await createUser(harness.db, { userType, firstName: "Sec", lastName: `${userType} Admin` }),
  );
}

const SETTINGS = `{ securitySettings { requireVerifiedEmail revealUnknownAccounts requireEnhancedForAdmins
  minPasswordLength loginIpAttempts loginAccountFreeFailures loginAccountMaxDelayMinutes adminsWithoutQuestions
  sessionTimings { idleTimeoutMinutes idleWarningMinutes idleCheckSeconds sessionCheckMinutes absoluteLifetimeHours }
  updatedAt updatedBy } }`;
const UPDATE = `mutation ($input: SecuritySettingsInput!) { updateSecuritySettings(input: $input) {
  __typename
  ... on AppError { code message }
  ... on MutationUpdateSecuritySettingsSuccess { data { requireVerifiedEmail revealUnknownAccounts
    requireEnhancedForAdmins minPasswordLength loginIpAttempts loginAccountFreeFailures
    loginAccountMaxDelayMinutes updatedBy } }
} }`;
const SIGN_OUT = `mutation { signOutEveryoneElse {
  __typename
  ... on AppError { code message }
  ... on MutationSignOutEveryoneElseSuccess { data { at accounts } }
} }`;

const DEFAULTS = {
  requireVerifiedEmail: true,
  revealUnknownAccounts: false,
  requireEnhancedForAdmins: false,
  minPasswordLength: 8,
  loginIpAttempts: 100,
  loginAccountFreeFailures: 5,
  loginAccountMaxDelayMinutes: 15,
};
const input = (overrides: Record<string, unknown> = {}) => ({ ...DEFAULTS, ...overrides });

let mainAdmin = "";
async function save(overrides: Record<string, unknown>) {
  const res = await gql(UPDATE, mainAdmin, { input: input(overrides) });
  expect(res.data?.updateSecuritySettings?.__typename).toBe("MutationUpdateSecuritySettingsSuccess");
}

beforeAll(async () => {
  mainAdmin = await signIn("mainAdmin");
});
afterEach(async () => {
  // each test starts from the defaults
  await save({});
});

describe("security settings over GraphQL", () => {
  it("refuses the signed out, clients, prospects and userAdmins, and changes nothing", async () => {
    const bystander = await createUser(harness.db);
    const bystanderCookie = await signInAs(bystander);
    const cases = await refusedCallers(signIn, ["client", "prospect", "userAdmin"]);
    await expectRefusals(gql, cases, [
      [SETTINGS, "securitySettings"],
      [UPDATE, "updateSecuritySettings", { input: input({ revealUnknownAccounts: true }) }],
      [SIGN_OUT, "signOutEveryoneElse"],
    ]);
    expect(await harness.db.prisma.auditLog.count({ where: { action: { startsWith: "security." } } })).toBe(
      0,
    );
    const still = await request(harness.app).get("/api/user").set("Cookie", bystanderCookie);
    expect(still.status).toBe(200);
    // the password minimum is public
    const policy = await gql("{ passwordPolicy { minLength } }");
    expect(policy.data?.passwordPolicy).toEqual({ minLength: 8 });
    expect((await request(harness.app).get("/api/password-policy")).body).toEqual({ minLength: 8 });
  });

  it("answers the settings and the spec's session timings to a mainAdmin", async () => {
    const res = await gql(SETTINGS, mainAdmin);
    expect(res.errors).toBeUndefined();
    expect(res.data?.securitySettings).toMatchObject({
      ...DEFAULTS,
      adminsWithoutQuestions: expect.any(Number),
      sessionTimings: {
        idleTimeoutMinutes: 30,
        idleWarningMinutes: 28,
        idleCheckSeconds: 30,
        sessionCheckMinutes: 15,
        absoluteLifetimeHours: 12,
      },
    });
  });

  it("refuses values outside the safe bounds with the shared schema's messages", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ minPasswordLength: 7 }, boundsMessage("minPasswordLength")],
      [{ minPasswordLength: 65 }, boundsMessage("minPasswordLength")],
      [{ loginIpAttempts: 0 }, boundsMessage("loginIpAttempts")],
      [{ loginIpAttempts: 1_000_000 }, boundsMessage("loginIpAttempts")],
      [{ loginAccountFreeFailures: 2 }, boundsMessage("loginAccountFreeFailures")],
      [{ loginAccountFreeFailures: 21 }, boundsMessage("loginAccountFreeFailures")],
      [{ loginAccountMaxDelayMinutes: 0 }, boundsMessage("loginAccountMaxDelayMinutes")],
      [{ loginAccountMaxDelayMinutes: 61 }, boundsMessage("loginAccountMaxDelayMinutes")],
    ];
    for (const [bad, message] of cases) {
      const res = await gql(UPDATE, mainAdmin, { input: input(bad) });
      expect(res.data?.updateSecuritySettings).toEqual({
        __typename: "AppError",
        code: "VALIDATION_FAILED",
        message,
      });
    }
    expect(boundsMessage("minPasswordLength")).toBe(
      "Minimum password length must be a whole number from 8 to 64",
    );
    expect((await gql(SETTINGS, mainAdmin)).data?.securitySettings).toMatchObject(DEFAULTS);
    expect(await harness.db.prisma.auditLog.count({ where: { action: "security.settings_updated" } })).toBe(
      0,
    );
  });

  it("the verification gate and the 404 answer follow the settings at the next sign-in, audited", async () => {
    const unverified = await createUser(harness.db, { emailVerified: false });
    const gated = await login(unverified.username);
    expect(gated.status).toBe(403);
    expect(gated.body.needsVerification).toBe(true);
    const unknown = await login(`nobody_${uniqueSuffix()}`);
    expect(unknown.status).toBe(401);
    expect(unknown.body.message).toBe("Invalid login credentials");

    await save({ requireVerifiedEmail: false, revealUnknownAccounts: true });
    expect((await login(unverified.username)).status).toBe(200);
    const revealed = await login(`nobody_${uniqueSuffix()}`);
    expect(revealed.status).toBe(404);

    const [entry] = await harness.db.prisma.auditLog.findMany({
      where: { action: "security.settings_updated" },
      orderBy: { id: "desc" },
      take: 1,
    });
    expect(entry).toMatchObject({
      targetType: "security_settings",
      before: { requireVerifiedEmail: true, revealUnknownAccounts: false },
      after: { requireVerifiedEmail: false, revealUnknownAccounts: true },
      metadata: { changed: ["requireVerifiedEmail", "revealUnknownAccounts"] },
    });
    const read = (await gql(SETTINGS, mainAdmin)).data?.securitySettings;
    expect(read).toMatchObject({ requireVerifiedEmail: false, updatedBy: "Sec mainAdmin Admin" });
  });

  it("requires the enhanced level of administrators once set, and never of its author without questions", async () => {
    const refused = await gql(UPDATE, mainAdmin, { input: input({ requireEnhancedForAdmins: true }) });
    expect(refused.data?.updateSecuritySettings).toEqual({
      __typename: "AppError",
      code: "VALIDATION_FAILED",
      message: OWN_QUESTIONS_FIRST_MESSAGE,
    });

    const author = await createUser(harness.db, { userType: "mainAdmin", firstName: "Quinn" });
    await createSecurityQuestions(harness.db, author.id);
    const authorCookie = await signInAs(author);
    const withQuestions = await createUser(harness.db, { userType: "userAdmin" });
    await createSecurityQuestions(harness.db, withQuestions.id);
    const withoutQuestions = await createUser(harness.db, { userType: "userAdmin" });
    const client = await createUser(harness.db, { userType: "client" });

    const saved = await gql(UPDATE, authorCookie, { input: input({ requireEnhancedForAdmins: true }) });
    expect(saved.data?.updateSecuritySettings.data).toMatchObject({ requireEnhancedForAdmins: true });
    const challenged = await login(withQuestions.username);
    expect(challenged.status).toBe(200);
    expect(challenged.body).toMatchObject({ needsSecurityAnswer: true, userId: withQuestions.id });
    const blocked = await login(withoutQuestions.username);
    expect(blocked.status).toBe(403);
    expect(blocked.body.message).toBe(
      "Security questions are required for this account. Please contact support.",
    );
    // clients are not administrators: unchanged
    const plain = await login(client.username);
    expect(plain.status).toBe(200);
    expect(plain.body.needsSecurityAnswer).toBeUndefined();

    await gql(UPDATE, authorCookie, { input: input() });
    expect((await login(withoutQuestions.username)).body.needsSecurityAnswer).toBeUndefined();
  });

  it("registration, reset and password change honour the minimum length at once", async () => {
    await save({ minPasswordLength: 14 });
    const s = uniqueSuffix();
    const registration = {
      username: `len_${s}`,
      email: `len_${s}@example.test`,
      password: "Short-pass-1!", // 13 characters
      firstName: "Len",
      lastName: "Gth",
      userType: "prospect",
    };
    const short = await request(harness.app)
      .post("/api/register")
      .set("X-Forwarded-For", freshIp())
      .send(registration);
    expect(short.status).toBe(400);
    expect(short.body.message).toBe("Password must be at least 14 characters");
    expect(await harness.db.prisma.user.count({ where: { username: `len_${s}` } })).toBe(0);
    expect((await request(harness.app).get("/api/password-policy")).body).toEqual({ minLength: 14 });
    const long = await request(harness.app)
      .post("/api/register")
      .set("X-Forwarded-For", freshIp())
      .send({ ...registration, password: "Longer-pass-12!" });
    expect(long.status).toBe(201);

    // a reset link and an invitation link: the same minimum
    const invited = await createUser(harness.db);
    for (const purpose of ["password_reset", "invitation"] as const) {
      const token = await harness.db.prisma.$transaction((tx) =>
        issueToken(tx, { userId: invited.id, purpose }),
      );
      const use = purpose === "password_reset" ? resetPassword : acceptInvitation;
      await expect(
        use({ db: harness.db, token: token.raw, password: "Short-pass-1!" }),
      ).rejects.toMatchObject({
        code: "VALIDATION_FAILED",
        message: "Password must be at least 14 characters",
      });
    }

    const user = await createUser(harness.db);
    const cookie = await signInAs(user);
    const change = await request(harness.app)
      .post("/api/user/password")
      .set("Cookie", cookie)
      .send({ currentPassword: TEST_PASSWORD, newPassword: "Quite-new-1!" });
    expect(change.status).toBe(400);
    expect(change.body.message).toBe("Password must be at least 14 characters");

    // the spec's 8 always holds: a shorter stored minimum is refused, the default stays 8
    await save({ minPasswordLength: 8 });
    const eight = await request(harness.app)
      .post("/api/user/password")
      .set("Cookie", cookie)
      .send({ currentPassword: TEST_PASSWORD, newPassword: "Quite-new-1!" });
    expect(eight.status).toBe(200);
  });

  it("the per-address sign-in limit follows the settings, within its bounds", async () => {
    await save({ loginIpAttempts: 10 });
    const ip = freshIp();
    for (let i = 0; i < 10; i += 1) {
      const res = await login(`ghost_${uniqueSuffix()}`, "Wrong-pass-1!", ip);
      expect(res.status).toBe(401);
    }
    const limited = await login(`ghost_${uniqueSuffix()}`, "Wrong-pass-1!", ip);
    expect(limited.status).toBe(429);
    // another address is not limited
    expect((await login(`ghost_${uniqueSuffix()}`, "Wrong-pass-1!", freshIp())).status).toBe(401);
  });

  it("signs out everyone else: every session but the admin's own ends, audited", async () => {
    const admin = await createUser(harness.db, { userType: "mainAdmin" });
    const own = await signInAs(admin);
    const ownOther = await signInAs(admin);
    const someone = await signInAs(await createUser(harness.db, { userType: "client" }));
    const me = () => request(harness.app).get("/api/user");
    expect((await me().set("Cookie", someone)).status).toBe(200);

    const res = await gql(SIGN_OUT, own);
    expect(res.data?.signOutEveryoneElse).toEqual({
      __typename: "MutationSignOutEveryoneElseSuccess",
      data: { at: expect.any(String), accounts: expect.any(Number) },
    });
    expect((await me().set("Cookie", someone)).status).toBe(401);
    expect((await me().set("Cookie", ownOther)).status).toBe(401);
    expect((await me().set("Cookie", own)).status).toBe(200);
    const entry = await harness.db.prisma.auditLog.findFirst({
      where: { action: "security.sessions_revoked_all" },
    });
    expect(entry).toMatchObject({ actorId: admin.id, metadata: { accounts: expect.any(Number) } });
    // whoever was signed out signs in again as before
    mainAdmin = await signIn("mainAdmin");
  });
});
