import { identityAppFixture } from "@gateway/testing/fixtures";
import { sessionCookieOf } from "@gateway/testing/identityHarness";
import { unseal } from "@services/shared/sealed";
import {
  createSecurityQuestions,
  createUser,
  TEST_PASSWORD,
  TEST_SECURITY_ANSWERS,
  uniqueSuffix,
} from "@services/shared/testing/factories";
import request from "supertest";

// The account operations over GraphQL share the REST shims' use cases: signed out, invalid and
// forbidden first, then the happy path, including the emailed-token flows and enhanced sign-in.

const tokens: string[] = [];

const h = identityAppFixture({}, { noLeaks: () => [...TEST_SECURITY_ANSWERS, ...tokens] });

interface Answer {
  cookie: string | undefined;
  data: Record<string, Record<string, unknown> | null> | null;
  errors: { message: string; extensions?: { code?: string } }[] | undefined;
}

async function gql(query: string, variables: Record<string, unknown> = {}, cookie = ""): Promise<Answer> {
  const res = await request(h.app).post("/graphql").set("Cookie", cookie).send({ query, variables });
  h.bodies.push(res.text);
  return { cookie: sessionCookieOf(res), data: res.body.data ?? null, errors: res.body.errors };
}

const LOGIN = `mutation($login: String!, $password: String!) { login(login: $login, password: $password) {
  __typename ... on AppError { code message }
  ... on MutationLoginSuccess { data { needsSecurityAnswer userId question { index text } user { id } } } } }`;

async function signIn(login: string, password = TEST_PASSWORD): Promise<string> {
  const res = await gql(LOGIN, { login, password });
  expect(res.data?.login?.__typename).toBe("MutationLoginSuccess");
  return res.cookie ?? "";
}

async function sealedTokenOf(type: string, userId: number): Promise<string> {
  const rows = await h.db.prisma.outboxEvent.findMany({ where: { type }, orderBy: { createdAt: "desc" } });
  const payload = rows
    .map((r) => (r.envelope as { payload: Record<string, unknown> }).payload)
    .find((p) => p.userId === userId);
  const token = unseal(String(payload?.sealedToken));
  tokens.push(token);
  return token;
}

const QUESTIONS = `query($userId: Int!) { securityQuestions(userId: $userId) {
  __typename ... on AppError { code message } ... on QuerySecurityQuestionsSuccess { data { userId questions } } } }`;

describe("securityQuestions", () => {
  it("is refused signed out and for someone else, and answers one's own", async () => {
    const user = await createUser(h.db);
    const other = await createUser(h.db);
    await createSecurityQuestions(h.db, user.id);
    expect((await gql(QUESTIONS, { userId: user.id })).data?.securityQuestions).toMatchObject({
      code: "UNAUTHENTICATED",
    });
    const cookie = await signIn(user.username);
    expect((await gql(QUESTIONS, { userId: other.id }, cookie)).data?.securityQuestions).toMatchObject({
      code: "FORBIDDEN",
    });
    const own = await gql(QUESTIONS, { userId: user.id }, cookie);
    expect(own.data?.securityQuestions).toEqual({
      __typename: "QuerySecurityQuestionsSuccess",
      data: {
        userId: user.id,
        questions: [
          "What was the name of your first pet?",
          "In which city were you born?",
          "What is your favourite colour?",
        ],
      },
    });
  });
});

describe("userByUniqueId", () => {
  const Q = `query($u: String!) { userByUniqueId(uniqueId: $u) {
    __typename ... on AppError { code message } ... on QueryUserByUniqueIdSuccess { data { id uniqueId esrtSynced } } } }`;

  it("is refused signed out, invalid and for someone else, and answers one's own card", async () => {
    const user = await createUser(h.db);
    const other = await createUser(h.db);
    const out = await gql(Q, { u: user.uniqueId });
    expect(out.errors?.[0]?.extensions?.code ?? out.data?.userByUniqueId?.code).toBe("UNAUTHENTICATED");
    const cookie = await signIn(user.username);
    expect((await gql(Q, { u: " " }, cookie)).data?.userByUniqueId).toMatchObject({
      code: "VALIDATION_FAILED",
    });
    expect((await gql(Q, { u: other.uniqueId }, cookie)).data?.userByUniqueId).toMatchObject({
      code: "FORBIDDEN",
    });
    expect((await gql(Q, { u: user.uniqueId }, cookie)).data?.userByUniqueId).toEqual({
      __typename: "QueryUserByUniqueIdSuccess",
      data: { id: user.id, uniqueId: user.uniqueId, esrtSynced: false },
    });
  });
});

describe("sessionCheck", () => {
  const Q = `{ sessionCheck { __typename ... on AppError { code message }
    ... on QuerySessionCheckSuccess { data { active expiresAt } } } }`;

  it("answers 'Session expired' signed out and the expiry when signed in", async () => {
    expect((await gql(Q)).data?.sessionCheck).toEqual({
      __typename: "AppError",
      code: "UNAUTHENTICATED",
      message: "Session expired",
    });
    const user = await createUser(h.db);
    const cookie = await signIn(user.username);
    const res = await gql(Q, {}, cookie);
    const data = res.data?.sessionCheck?.data as { active: boolean; expiresAt: string };
    expect(data.active).toBe(true);
    const left = new Date(data.expiresAt).getTime() - Date.now();
    expect(left).toBeGreaterThan(29 * 60 * 1000);
    expect(left).toBeLessThanOrEqual(30 * 60 * 1000);
  });
});

describe("resendVerification and verifyEmail", () => {
  const RESEND = `mutation($email: String) { resendVerification(email: $email) {
    __typename ... on AppError { code message } ... on MutationResendVerificationSuccess { data { message } } } }`;
  const VERIFY = `mutation($token: String!) { verifyEmail(token: $token) {
    __typename ... on AppError { code message } ... on MutationVerifyEmailSuccess { data { message } } } }`;

  it("refuses a bad address and a bad token, then verifies with the resent link", async () => {
    expect((await gql(RESEND, {})).data?.resendVerification).toMatchObject({ code: "VALIDATION_FAILED" });
    expect((await gql(RESEND, { email: "nope" })).data?.resendVerification).toMatchObject({
      code: "VALIDATION_FAILED",
      message: "Please enter a valid email address",
    });
    expect((await gql(VERIFY, { token: "x".repeat(43) })).data?.verifyEmail).toEqual({
      __typename: "AppError",
      code: "BAD_REQUEST",
      message: "This verification link is invalid or has expired",
    });
    const user = await createUser(h.db, { emailVerified: false });
    const resent = await gql(RESEND, { email: user.email });
    expect(resent.data?.resendVerification?.__typename).toBe("MutationResendVerificationSuccess");
    const rows = await h.db.prisma.outboxEvent.findMany({ orderBy: { createdAt: "desc" }, take: 20 });
    const event = rows.find(
      (r) =>
        (r.envelope as { payload: { userId?: number } }).payload.userId === user.id &&
        r.type !== "user.updated",
    );
    expect(event).toBeDefined();
    const token = await sealedTokenOf(String(event?.type), user.id);
    const ok = await gql(VERIFY, { token });
    expect(ok.data?.verifyEmail).toEqual({
      __typename: "MutationVerifyEmailSuccess",
      data: { message: "Email verified" },
    });
    expect((await h.db.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).emailVerified).toBe(true);
  });
});

describe("resetPassword", () => {
  const ASK = `mutation($email: String!) { requestPasswordReset(email: $email) {
    __typename ... on MutationRequestPasswordResetSuccess { data { message } } } }`;
  const RESET = `mutation($token: String!, $password: String!) { resetPassword(token: $token, password: $password) {
    __typename ... on AppError { code message } ... on MutationResetPasswordSuccess { data { message } } } }`;

  it("refuses a bad token, then sets the password with the emailed one and ends the old session", async () => {
    const user = await createUser(h.db);
    const old = await signIn(user.username);
    expect(
      (await gql(RESET, { token: "y".repeat(43), password: "Amber-Meadow-31!" })).data?.resetPassword,
    ).toEqual({
      __typename: "AppError",
      code: "BAD_REQUEST",
      message: "This reset link is invalid or has expired",
    });
    await gql(ASK, { email: user.email });
    const token = await sealedTokenOf("user.password_reset_requested", user.id);
    const ok = await gql(RESET, { token, password: "Amber-Meadow-31!" });
    expect(ok.data?.resetPassword).toEqual({
      __typename: "MutationResetPasswordSuccess",
      data: { message: "Password updated" },
    });
    expect((await gql("{ me { id } }", {}, old)).errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    await signIn(user.username, "Amber-Meadow-31!");
  });
});

describe("verifySecurityAnswers (enhanced sign-in)", () => {
  const ANSWER = `mutation($userId: Int!, $answers: [SecurityAnswerInput!]!) {
    verifySecurityAnswers(userId: $userId, answers: $answers) {
      __typename ... on AppError { code message }
      ... on MutationVerifySecurityAnswersSuccess { data { verified user { id } } } } }`;

  it("refuses wrong answers, then grants the session for the right one", async () => {
    const user = await createUser(h.db, { securityLevel: "enhanced" });
    await createSecurityQuestions(h.db, user.id);
    const step = await gql(LOGIN, { login: user.username, password: TEST_PASSWORD });
    const challenge = step.data?.login?.data as { needsSecurityAnswer: boolean; question: { index: number } };
    expect(challenge.needsSecurityAnswer).toBe(true);
    const pending = step.cookie ?? "";
    expect((await gql("{ me { id } }", {}, pending)).errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    // the pending step may read the questions it must answer
    expect((await gql(QUESTIONS, { userId: user.id }, pending)).data?.securityQuestions?.__typename).toBe(
      "QuerySecurityQuestionsSuccess",
    );
    const index = challenge.question.index;
    const wrong = await gql(
      ANSWER,
      { userId: user.id, answers: [{ questionIndex: index, answer: "nope" }] },
      pending,
    );
    expect(wrong.data?.verifySecurityAnswers).toMatchObject({
      code: "UNAUTHENTICATED",
      message: "Security verification failed",
    });
    const right = await gql(
      ANSWER,
      {
        userId: user.id,
        answers: [{ questionIndex: index, answer: ` ${TEST_SECURITY_ANSWERS[index]?.toUpperCase()} ` }],
      },
      pending,
    );
    expect(right.data?.verifySecurityAnswers).toEqual({
      __typename: "MutationVerifySecurityAnswersSuccess",
      data: { verified: true, user: { id: user.id } },
    });
    expect((await gql("{ me { id } }", {}, right.cookie ?? "")).data?.me).toEqual({ id: user.id });
  });
});

describe("changePassword", () => {
  const CHANGE = `mutation($c: String!, $n: String!) { changePassword(currentPassword: $c, newPassword: $n) {
    __typename ... on AppError { code message } ... on MutationChangePasswordSuccess { data { message } } } }`;

  it("is refused signed out and with a wrong current password, then changes it", async () => {
    const out = await gql(CHANGE, { c: TEST_PASSWORD, n: "Copper-Violin-83!" });
    expect(out.errors?.[0]?.extensions?.code ?? out.data?.changePassword?.code).toBe("UNAUTHENTICATED");
    const user = await createUser(h.db);
    const cookie = await signIn(user.username);
    expect(
      (await gql(CHANGE, { c: "Not-It-1234!", n: "Copper-Violin-83!" }, cookie)).data?.changePassword,
    ).toEqual({
      __typename: "AppError",
      code: "VALIDATION_FAILED",
      message: "Current password is incorrect",
    });
    const ok = await gql(CHANGE, { c: TEST_PASSWORD, n: "Copper-Violin-83!" }, cookie);
    expect(ok.data?.changePassword).toEqual({
      __typename: "MutationChangePasswordSuccess",
      data: { message: "Password updated" },
    });
    expect(ok.cookie).toBeDefined();
    expect((await gql("{ me { id } }", {}, ok.cookie ?? "")).data?.me).toEqual({ id: user.id });
    await signIn(user.email, "Copper-Violin-83!");
  });
});

describe("registration name rule over GraphQL", () => {
  it("refuses '@' in a username", async () => {
    const s = uniqueSuffix();
    const res = await gql(
      `mutation($input: RegisterInput!) { register(input: $input) { __typename ... on AppError { code message } } }`,
      {
        input: {
          username: `a@${s}.test`,
          email: `at_${s}@example.test`,
          password: TEST_PASSWORD,
          firstName: "At",
          lastName: "Sign",
          userType: "prospect",
        },
      },
    );
    expect(res.data?.register).toEqual({
      __typename: "AppError",
      code: "VALIDATION_FAILED",
      message: "Username cannot contain @",
    });
  });
});
