import {
  type IdentityGqlAnswer,
  identityAppFixture,
  identityGql,
  prospectRegistration,
  sessionStoreKey,
} from "@gateway/testing/fixtures";
import { leakedSecrets } from "@gateway/testing/identityHarness";
import { createAdmin, createUser, TEST_PASSWORD, uniqueSuffix } from "@services/shared/testing/factories";

const h = identityAppFixture();

function gql(
  query: string,
  variables: Record<string, unknown> = {},
  cookie = "",
): Promise<IdentityGqlAnswer> {
  return identityGql(h, query, variables, cookie);
}

/** The Redis set of a user's session ids. */
function indexKey(userId: number): string {
  return `${process.env.REDIS_PREFIX ?? "portal:"}user-sessions:${userId}`;
}

const LOGIN = `mutation($login: String!, $password: String!) {
  login(login: $login, password: $password) {
    __typename
    ... on AppError { code message }
    ... on MutationLoginSuccess { data { needsSecurityAnswer user { id username permissions } } }
  }
}`;
const ME = "{ me { id userType permissions } }";

async function signIn(username: string): Promise<string> {
  const res = await gql(LOGIN, { login: username, password: TEST_PASSWORD });
  expect(res.data?.login).toMatchObject({ __typename: "MutationLoginSuccess" });
  return res.cookie ?? "";
}

describe("me", () => {
  it("is refused when signed out", async () => {
    const res = await gql(ME);
    expect(res.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    expect(res.errors?.[0]?.message).toBe("Unauthorized - Please log in");
  });

  it("answers the signed-in user", async () => {
    const user = await createUser(h.db, { userType: "client" });
    const cookie = await signIn(user.username);
    const res = await gql(ME, {}, cookie);
    expect(res.data?.me).toEqual({ id: user.id, userType: "client", permissions: [] });
  });
});

describe("login and logout", () => {
  it("answers wrong credentials as a typed error, then signs in and out", async () => {
    const user = await createUser(h.db);
    const wrong = await gql(LOGIN, { login: user.username, password: "Wrong-password-1!" });
    expect(wrong.data?.login).toEqual({
      __typename: "AppError",
      code: "UNAUTHENTICATED",
      message: "Invalid login credentials",
    });
    const invalid = await gql(LOGIN, { login: "", password: "x" });
    expect(invalid.data?.login).toMatchObject({ __typename: "AppError", code: "VALIDATION_FAILED" });

    const cookie = await signIn(user.email);
    expect((await gql(ME, {}, cookie)).data?.me).toMatchObject({ id: user.id });
    const out = await gql("mutation { logout }", {}, cookie);
    expect(out.data?.logout).toBe(true);
    expect((await gql(ME, {}, cookie)).errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
  });
});

describe("register", () => {
  const REGISTER = `mutation($input: RegisterInput!) {
    register(input: $input) {
      __typename
      ... on AppError { code message }
      ... on MutationRegisterSuccess { data { id userType emailVerified } }
    }
  }`;

  it("refuses invalid input and admin kinds, then registers and signs in", async () => {
    const s = uniqueSuffix();
    const input = prospectRegistration(`gql_${s}`, "Gina", "Graph");
    const invalid = await gql(REGISTER, { input: { ...input, username: "ab" } });
    expect(invalid.data?.register).toEqual({
      __typename: "AppError",
      code: "VALIDATION_FAILED",
      message: "Username must be at least 3 characters",
    });
    const admin = await gql(REGISTER, { input: { ...input, userType: "mainAdmin" } });
    expect(admin.data?.register).toMatchObject({ __typename: "AppError", code: "FORBIDDEN" });

    const ok = await gql(REGISTER, { input });
    expect(ok.data?.register).toMatchObject({
      __typename: "MutationRegisterSuccess",
      data: { userType: "prospect", emailVerified: false },
    });
    expect((await gql(ME, {}, ok.cookie ?? "")).data?.me).toMatchObject({ userType: "prospect" });
  });
});

describe("account mutations", () => {
  it("answers bad tokens as typed errors and a reset request the same for anyone", async () => {
    const verify = await gql(
      `mutation { verifyEmail(token: "${"z".repeat(43)}") { __typename ... on AppError { code message } } }`,
    );
    expect(verify.data?.verifyEmail).toEqual({
      __typename: "AppError",
      code: "BAD_REQUEST",
      message: "This verification link is invalid or has expired",
    });
    const reset = await gql(
      `mutation { resetPassword(token: "${"z".repeat(43)}", password: "New-Secret-77!") { __typename ... on AppError { message } } }`,
    );
    expect(reset.data?.resetPassword).toEqual({
      __typename: "AppError",
      message: "This reset link is invalid or has expired",
    });
    const ask = await gql(
      `mutation { requestPasswordReset(email: "ghost_${uniqueSuffix()}@example.test") { __typename ... on MutationRequestPasswordResetSuccess { data { message } } } }`,
    );
    expect(ask.data?.requestPasswordReset).toEqual({
      __typename: "MutationRequestPasswordResetSuccess",
      data: { message: "If an account exists with this email, you will receive reset instructions." },
    });
  });

  const NOTES = `mutation($notes: String!) { updateNotes(notes: $notes) {
    __typename ... on AppError { code message } ... on MutationUpdateNotesSuccess { data { notes wordCount } } } }`;
  const QUESTIONS = `mutation($userId: Int!, $questions: [SecurityQuestionInput!]!) {
    setSecurityQuestions(userId: $userId, questions: $questions) {
      __typename ... on AppError { code message } ... on MutationSetSecurityQuestionsSuccess { data { message } } } }`;
  const questions = [
    { question: "What was your first car?", answer: "Beetle" },
    { question: "Where did you meet your spouse?", answer: "Paris" },
    { question: "What is your grandmother's name?", answer: "Ada" },
  ];

  it("refuses notes and security questions when signed out", async () => {
    const notes = await gql(NOTES, { notes: "hello" });
    const qs = await gql(QUESTIONS, { userId: 1, questions });
    for (const res of [notes, qs]) {
      const typed = Object.values(res.data ?? {})[0] as { code?: string } | null;
      expect(typed?.code ?? res.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    }
  });

  it("saves notes (over 250 words refused) and security questions (only one's own)", async () => {
    const user = await createUser(h.db);
    const other = await createUser(h.db);
    const cookie = await signIn(user.username);
    const long = await gql(NOTES, { notes: "word ".repeat(251) }, cookie);
    expect(long.data?.updateNotes).toEqual({
      __typename: "AppError",
      code: "VALIDATION_FAILED",
      message: "Notes are limited to 250 words.",
    });
    const ok = await gql(NOTES, { notes: "Call me tomorrow" }, cookie);
    expect(ok.data?.updateNotes).toEqual({
      __typename: "MutationUpdateNotesSuccess",
      data: { notes: "Call me tomorrow", wordCount: 3 },
    });

    const forbidden = await gql(QUESTIONS, { userId: other.id, questions }, cookie);
    expect(forbidden.data?.setSecurityQuestions).toMatchObject({ __typename: "AppError", code: "FORBIDDEN" });
    const saved = await gql(QUESTIONS, { userId: user.id, questions }, cookie);
    expect(saved.data?.setSecurityQuestions).toEqual({
      __typename: "MutationSetSecurityQuestionsSuccess",
      data: { message: "Security questions saved" },
    });
  });

  it("refuses security answers for a user nobody is signing in as", async () => {
    const user = await createUser(h.db);
    const res = await gql(
      `mutation { verifySecurityAnswers(userId: ${user.id}, answers: [{ questionIndex: 0, answer: "Rex" }]) {
        __typename ... on AppError { code message } } }`,
    );
    expect(res.data?.verifySecurityAnswers).toEqual({
      __typename: "AppError",
      code: "UNAUTHENTICATED",
      message: "Security verification failed",
    });
  });
});

describe("checkPermissions across the five user types", () => {
  const CHECK = `query($p: [String!]) { checkPermissions(permissions: $p) { isAdmin hasPermissions exactPermissions message } }`;

  it("answers the not-admin result when signed out", async () => {
    const res = await gql(CHECK, { p: ["manage:users"] });
    expect(res.data?.checkPermissions).toEqual({
      isAdmin: false,
      hasPermissions: false,
      exactPermissions: [],
      message: "Unauthorized - Please log in",
    });
  });

  const expected: Record<string, { isAdmin: boolean; config: boolean; users: boolean }> = {
    mainAdmin: { isAdmin: true, config: true, users: true },
    userAdmin: { isAdmin: true, config: false, users: true },
    client: { isAdmin: false, config: false, users: false },
    prospect: { isAdmin: false, config: false, users: false },
    user: { isAdmin: false, config: false, users: false },
  };

  it.each(Object.keys(expected))("answers a %s by the matrix", async (userType) => {
    const e = expected[userType] ?? { isAdmin: false, config: false, users: false };
    const account =
      userType === "mainAdmin" || userType === "userAdmin"
        ? await createAdmin(h.db, { userType })
        : await createUser(h.db, { userType: userType as "client" | "prospect" | "user" });
    const cookie = await signIn(account.username);
    const config = await gql(CHECK, { p: ["manage:config"] }, cookie);
    expect(config.data?.checkPermissions).toMatchObject({ isAdmin: e.isAdmin, hasPermissions: e.config });
    const users = await gql(CHECK, { p: ["manage:users"] }, cookie);
    expect(users.data?.checkPermissions).toMatchObject({ hasPermissions: e.users });
    const me = await gql(ME, {}, cookie);
    expect(me.data?.me).toMatchObject({ userType });
  });
});

describe("administrator changes (manage:users)", () => {
  const TYPE = `mutation($userId: Int!, $userType: UserType!) { changeUserType(userId: $userId, userType: $userType) {
    __typename ... on AppError { code message } ... on MutationChangeUserTypeSuccess { data { id userType } } } }`;
  const STATUS = `mutation($userId: Int!, $status: UserStatus!) { changeUserStatus(userId: $userId, status: $status) {
    __typename ... on AppError { code message } ... on MutationChangeUserStatusSuccess { data { id userStatus } } } }`;
  const ACCESS = `mutation($userId: Int!, $accessLevel: AccessLevel!) { changeUserAccessLevel(userId: $userId, accessLevel: $accessLevel) {
    __typename ... on AppError { code message } ... on MutationChangeUserAccessLevelSuccess { data { id accessLevel } } } }`;

  function codeOf(res: IdentityGqlAnswer, field: string): string | undefined {
    const typed = res.data?.[field] as { code?: string; __typename?: string } | null | undefined;
    return typed?.code ?? res.errors?.[0]?.extensions?.code;
  }

  it("is refused when signed out", async () => {
    const target = await createUser(h.db);
    expect(codeOf(await gql(TYPE, { userId: target.id, userType: "client" }), "changeUserType")).toBe(
      "UNAUTHENTICATED",
    );
    expect(codeOf(await gql(STATUS, { userId: target.id, status: "inactive" }), "changeUserStatus")).toBe(
      "UNAUTHENTICATED",
    );
    expect(
      codeOf(await gql(ACCESS, { userId: target.id, accessLevel: "full" }), "changeUserAccessLevel"),
    ).toBe("UNAUTHENTICATED");
  });

  it.each(["mainAdmin", "userAdmin", "client", "prospect", "user"])(
    "follows the matrix for a %s",
    async (actorType) => {
      const actor =
        actorType === "mainAdmin" || actorType === "userAdmin"
          ? await createAdmin(h.db, { userType: actorType })
          : await createUser(h.db, { userType: actorType as "client" | "prospect" | "user" });
      const cookie = await signIn(actor.username);
      const target = await createUser(h.db, { userType: "user" });
      const res = await gql(TYPE, { userId: target.id, userType: "client" }, cookie);
      const allowed = actorType === "mainAdmin" || actorType === "userAdmin";
      if (allowed)
        expect(res.data?.changeUserType).toMatchObject({ data: { id: target.id, userType: "client" } });
      else expect(codeOf(res, "changeUserType")).toBe("FORBIDDEN");
      const status = await gql(STATUS, { userId: target.id, status: "inactive" }, cookie);
      if (allowed) expect(status.data?.changeUserStatus).toMatchObject({ data: { userStatus: "inactive" } });
      else expect(codeOf(status, "changeUserStatus")).toBe("FORBIDDEN");
      const access = await gql(ACCESS, { userId: target.id, accessLevel: "full" }, cookie);
      if (allowed) {
        expect(access.data?.changeUserAccessLevel).toMatchObject({ data: { accessLevel: "full" } });
        const [event] = await h.db.prisma.$queryRaw<
          { payload: { changedFields: string[]; snapshot: unknown } }[]
        >`
          SELECT envelope->'payload' AS payload FROM outbox_events
          WHERE type = 'user.updated' AND (envelope->'payload'->>'userId')::int = ${target.id}
          ORDER BY "createdAt" DESC LIMIT 1`;
        expect(event?.payload).toMatchObject({
          changedFields: ["accessLevel"],
          snapshot: { accessLevel: "full" },
        });
      } else expect(codeOf(access, "changeUserAccessLevel")).toBe("FORBIDDEN");
    },
  );

  it("refuses one's own account and mainAdmin changes by a userAdmin", async () => {
    const userAdmin = await createAdmin(h.db, { userType: "userAdmin" });
    const mainAdmin = await createAdmin(h.db);
    const target = await createUser(h.db);
    const cookie = await signIn(userAdmin.username);
    const self = await gql(TYPE, { userId: userAdmin.id, userType: "mainAdmin" }, cookie);
    expect(self.data?.changeUserType).toEqual({
      __typename: "AppError",
      code: "FORBIDDEN",
      message: "You cannot change your own user type or status",
    });
    const promote = await gql(TYPE, { userId: target.id, userType: "mainAdmin" }, cookie);
    expect(codeOf(promote, "changeUserType")).toBe("FORBIDDEN");
    const demote = await gql(STATUS, { userId: mainAdmin.id, status: "archived" }, cookie);
    expect(codeOf(demote, "changeUserStatus")).toBe("FORBIDDEN");
    const unknown = await gql(TYPE, { userId: 2_000_000_000, userType: "client" }, cookie);
    expect(codeOf(unknown, "changeUserType")).toBe("NOT_FOUND");
  });

  it("keeps the user's sessions on a type change (with the new rights), ends them on a status change, records the event and the audit row", async () => {
    const admin = await createAdmin(h.db);
    const adminCookie = await signIn(admin.username);
    const target = await createUser(h.db, { userType: "user" });
    const phone = await signIn(target.username);
    const laptop = await signIn(target.username);
    expect((await gql(ME, {}, phone)).data?.me).toMatchObject({ userType: "user" });

    const changed = await gql(TYPE, { userId: target.id, userType: "client" }, adminCookie);
    expect(changed.data?.changeUserType).toMatchObject({ data: { userType: "client" } });
    // the open sessions go on, and carry the new type from their next request
    for (const cookie of [phone, laptop]) {
      expect(await h.redis.exists(sessionStoreKey(cookie))).toBe(1);
      expect((await gql(ME, {}, cookie)).data?.me).toMatchObject({ id: target.id, userType: "client" });
    }
    expect(await h.redis.sCard(indexKey(target.id))).toBe(2);
    expect((await gql(ME, {}, adminCookie)).data?.me).toMatchObject({ id: admin.id });
    const events = await h.db.prisma.outboxEvent.findMany({ where: { type: "user.updated" } });
    const event = events
      .map((e) => (e.envelope as { payload: { userId: number; changedFields: string[] } }).payload)
      .find((p) => p.userId === target.id);
    expect(event?.changedFields).toEqual(["userType"]);
    const row = await h.db.prisma.auditLog.findFirst({
      where: { action: "user.type_changed", targetId: String(target.id) },
    });
    expect(row).toMatchObject({ actorId: admin.id, metadata: { from: "user", to: "client" } });
    expect(row?.ip).toBeTruthy();

    const again = await signIn(target.username);
    expect(await h.redis.exists(sessionStoreKey(again))).toBe(1);
    await gql(STATUS, { userId: target.id, status: "inactive" }, adminCookie);
    // destroyed in the store at once, not merely refused when next used
    for (const cookie of [again, phone, laptop])
      expect(await h.redis.exists(sessionStoreKey(cookie))).toBe(0);
    expect(await h.redis.sCard(indexKey(target.id))).toBe(0);
    expect((await gql(ME, {}, again)).errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    const refused = await gql(LOGIN, { login: target.username, password: TEST_PASSWORD });
    expect(refused.data?.login).toMatchObject({ __typename: "AppError", code: "FORBIDDEN" });
  });
});

describe("answers", () => {
  it("never carried the password or a hash", () => {
    expect(leakedSecrets(h.bodies)).toEqual([]);
  });
});
