import {
  type IdentityGqlAnswer,
  identityAppFixture,
  identityGql,
  sessionStoreKey,
} from "@gateway/testing/fixtures";
import { leakedSecrets } from "@gateway/testing/identityHarness";
import type { UserType } from "@services/shared/generated/prisma/enums";
import {
  createAdmin,
  createAppointment,
  createDocument,
  createSecurityQuestions,
  createUser,
  TEST_PASSWORD,
  uniqueSuffix,
} from "@services/shared/testing/factories";
import { createInvitedUser } from "@services/user";
import request from "supertest";

// One user as an administrator sees and changes them (issue 11), over GraphQL against the real
// database and Redis: the permission matrix of every field and mutation, the profile edit's
// messages, each action's audit row, the sessions list and revocations, and what a type or status
// change does to the user's open sessions.

const h = identityAppFixture();

function gql(
  query: string,
  variables: Record<string, unknown> = {},
  cookie = "",
  userAgent = "",
): Promise<IdentityGqlAnswer> {
  return identityGql(h, query, variables, cookie, { "User-Agent": userAgent });
}

const LOGIN = `mutation($login: String!, $password: String!) { login(login: $login, password: $password) {
  __typename ... on AppError { code message } } }`;

const CHROME_LINUX =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const SAFARI_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

async function signIn(login: string, userAgent = CHROME_LINUX): Promise<string> {
  const res = await gql(LOGIN, { login, password: TEST_PASSWORD }, "", userAgent);
  expect(res.data?.login).toMatchObject({ __typename: "MutationLoginSuccess" });
  return res.cookie ?? "";
}

/** The code of a typed error result, or of the top-level error. */
function codeOf(res: IdentityGqlAnswer, field: string): string | undefined {
  const typed = res.data?.[field] as { code?: string } | null | undefined;
  return typed?.code ?? res.errors?.[0]?.extensions?.code;
}

function messageOf(res: IdentityGqlAnswer, field: string): string | undefined {
  const typed = res.data?.[field] as { message?: string } | null | undefined;
  return typed?.message ?? res.errors?.[0]?.message;
}

const ACTORS = ["mainAdmin", "userAdmin", "client", "prospect", "signedOut"] as const;
type ActorKind = (typeof ACTORS)[number];

async function cookieOf(kind: ActorKind): Promise<string> {
  if (kind === "signedOut") return "";
  const actor =
    kind === "mainAdmin" || kind === "userAdmin"
      ? await createAdmin(h.db, { userType: kind })
      : await createUser(h.db, { userType: kind });
  return signIn(actor.username);
}

const expected = (kind: ActorKind) =>
  kind === "mainAdmin" || kind === "userAdmin"
    ? "ok"
    : kind === "signedOut"
      ? "UNAUTHENTICATED"
      : "FORBIDDEN";

const DETAIL = `query($id: Int!) { adminUser(id: $id) { id username userType
  noteHistory { id notes wordCount createdAt }
  appointments { id status }
  documents { id title }
  sessions { id device ip signedInAt lastSeenAt expiresAt } } }`;

const PROFILE = `mutation($userId: Int!, $input: AdminUserProfileInput!) { adminUpdateUserProfile(userId: $userId, input: $input) {
  __typename ... on AppError { code message }
  ... on MutationAdminUpdateUserProfileSuccess { data { id username email firstName lastName phone companyName emailVerified } } } }`;

const action = (name: string) => `mutation($userId: Int!) { ${name}(userId: $userId) {
  __typename ... on AppError { code message }
  ... on ${successName(name)} { data { message user { id emailVerified securityQuestionsSet securityLevel } } } } }`;

function successName(field: string): string {
  return `Mutation${field[0]?.toUpperCase()}${field.slice(1)}Success`;
}

const REVOKE_ONE = `mutation($userId: Int!, $sessionId: String!) { adminRevokeUserSession(userId: $userId, sessionId: $sessionId) {
  __typename ... on AppError { code message } ... on MutationAdminRevokeUserSessionSuccess { data { ended } } } }`;
const REVOKE_ALL = `mutation($userId: Int!) { adminRevokeUserSessions(userId: $userId) {
  __typename ... on AppError { code message } ... on MutationAdminRevokeUserSessionsSuccess { data { ended } } } }`;
const TYPE = `mutation($userId: Int!, $userType: UserType!) { changeUserType(userId: $userId, userType: $userType) {
  __typename ... on AppError { code message } ... on MutationChangeUserTypeSuccess { data { id userType } } } }`;
const STATUS = `mutation($userId: Int!, $status: UserStatus!) { changeUserStatus(userId: $userId, status: $status) {
  __typename ... on AppError { code message } ... on MutationChangeUserStatusSuccess { data { id userStatus } } } }`;
const MY_DOCUMENTS = "{ myDocuments { totalCount } }";

function profileOf(user: { username: string; email: string; firstName: string; lastName: string }) {
  return { username: user.username, email: user.email, firstName: user.firstName, lastName: user.lastName };
}

describe("the permission matrix", () => {
  it.each(ACTORS)("answers a %s as the matrix says, for every field and mutation", async (kind) => {
    const cookie = await cookieOf(kind);
    const target = await createUser(h.db, { userType: "prospect", emailVerified: false });
    const want = expected(kind);

    const detail = await gql(DETAIL, { id: target.id }, cookie);
    if (want === "ok") expect(detail.data?.adminUser).toMatchObject({ id: target.id, noteHistory: [] });
    else expect(detail.errors?.[0]?.extensions?.code).toBe(want);

    const grantable = await gql("{ grantableUserTypes }", {}, cookie);
    if (want === "ok") expect(grantable.data?.grantableUserTypes).toEqual(expect.arrayContaining(["client"]));
    else expect(grantable.errors?.[0]?.extensions?.code).toBe(want);

    const s = uniqueSuffix();
    const edit = await gql(
      PROFILE,
      { userId: target.id, input: { ...profileOf(target), firstName: `Renamed${s}` } },
      cookie,
    );
    if (want === "ok")
      expect(edit.data?.adminUpdateUserProfile).toMatchObject({ data: { firstName: `Renamed${s}` } });
    else expect(codeOf(edit, "adminUpdateUserProfile")).toBe(want);

    for (const name of [
      "adminResendVerification",
      "adminMarkEmailVerified",
      "adminSendPasswordReset",
      "adminClearSecurityQuestions",
      "adminRevokeUserSessions",
    ]) {
      const res = await gql(
        name === "adminRevokeUserSessions" ? REVOKE_ALL : action(name),
        { userId: target.id },
        cookie,
      );
      if (want === "ok")
        expect((res.data?.[name] as { __typename?: string } | undefined)?.__typename).toBe(successName(name));
      else expect(codeOf(res, name)).toBe(want);
    }
    const one = await gql(REVOKE_ONE, { userId: target.id, sessionId: "0".repeat(32) }, cookie);
    if (want === "ok") expect(one.data?.adminRevokeUserSession).toMatchObject({ data: { ended: 0 } });
    else expect(codeOf(one, "adminRevokeUserSession")).toBe(want);
  });

  it("refuses one's own account and a userAdmin's changes to the admin types", async () => {
    const userAdmin = await createAdmin(h.db, { userType: "userAdmin" });
    const otherAdmin = await createAdmin(h.db, { userType: "userAdmin" });
    const mainAdmin = await createAdmin(h.db);
    const cookie = await signIn(userAdmin.username);

    const self = await gql(PROFILE, { userId: userAdmin.id, input: profileOf(userAdmin) }, cookie);
    expect(self.data?.adminUpdateUserProfile).toEqual({
      __typename: "AppError",
      code: "FORBIDDEN",
      message: "You cannot manage your own account here; use your own profile and security pages",
    });
    const ownType = await gql(TYPE, { userId: userAdmin.id, userType: "client" }, cookie);
    expect(messageOf(ownType, "changeUserType")).toBe("You cannot change your own user type or status");
    const ownStatus = await gql(STATUS, { userId: userAdmin.id, status: "inactive" }, cookie);
    expect(codeOf(ownStatus, "changeUserStatus")).toBe("FORBIDDEN");
    expect(codeOf(await gql(REVOKE_ALL, { userId: userAdmin.id }, cookie), "adminRevokeUserSessions")).toBe(
      "FORBIDDEN",
    );

    for (const target of [otherAdmin, mainAdmin]) {
      const edit = await gql(PROFILE, { userId: target.id, input: profileOf(target) }, cookie);
      expect(messageOf(edit, "adminUpdateUserProfile")).toBe(
        "Only a main administrator may grant, remove or change the mainAdmin and userAdmin types",
      );
      for (const name of [
        "adminSendPasswordReset",
        "adminClearSecurityQuestions",
        "adminMarkEmailVerified",
      ]) {
        expect(codeOf(await gql(action(name), { userId: target.id }, cookie), name)).toBe("FORBIDDEN");
      }
      expect(codeOf(await gql(REVOKE_ALL, { userId: target.id }, cookie), "adminRevokeUserSessions")).toBe(
        "FORBIDDEN",
      );
    }
    const client = await createUser(h.db, { userType: "client" });
    const grantAdmin = await gql(TYPE, { userId: client.id, userType: "mainAdmin" }, cookie);
    expect(codeOf(grantAdmin, "changeUserType")).toBe("FORBIDDEN");
    const grantUserAdmin = await gql(TYPE, { userId: client.id, userType: "userAdmin" }, cookie);
    expect(codeOf(grantUserAdmin, "changeUserType")).toBe("FORBIDDEN");
    expect((await gql("{ grantableUserTypes }", {}, cookie)).data?.grantableUserTypes).toEqual([
      "prospect",
      "user",
      "client",
    ]);

    const mainCookie = await signIn(mainAdmin.username);
    expect((await gql("{ grantableUserTypes }", {}, mainCookie)).data?.grantableUserTypes).toEqual([
      "prospect",
      "user",
      "client",
      "userAdmin",
      "mainAdmin",
    ]);
    const promoted = await gql(TYPE, { userId: client.id, userType: "userAdmin" }, mainCookie);
    expect(promoted.data?.changeUserType).toMatchObject({ data: { userType: "userAdmin" } });
    const edited = await gql(
      PROFILE,
      { userId: otherAdmin.id, input: { ...profileOf(otherAdmin), lastName: "Edited" } },
      mainCookie,
    );
    expect(edited.data?.adminUpdateUserProfile).toMatchObject({ data: { lastName: "Edited" } });
    const unknown = await gql(DETAIL, { id: 2_000_000_000 }, mainCookie);
    expect(unknown.data?.adminUser).toBeNull();
  });
});

describe("who sees a user's sessions", () => {
  const SESSIONS = `query($id: Int!) { adminUser(id: $id) { id sessions { id device ip } } }`;

  it("shows an administrator's sessions (addresses, devices) to a mainAdmin only", async () => {
    const mainAdmin = await createAdmin(h.db);
    const otherMain = await createAdmin(h.db);
    const userAdmin = await createAdmin(h.db, { userType: "userAdmin" });
    const otherUserAdmin = await createAdmin(h.db, { userType: "userAdmin" });
    const client = await createUser(h.db, { userType: "client" });
    for (const signedIn of [otherMain, otherUserAdmin, client])
      await signIn(signedIn.username, SAFARI_IPHONE);
    const asUserAdmin = await signIn(userAdmin.username);
    const asMainAdmin = await signIn(mainAdmin.username);

    for (const target of [otherMain, otherUserAdmin, userAdmin]) {
      const refused = await gql(SESSIONS, { id: target.id }, asUserAdmin);
      expect(refused.data?.adminUser ?? null).toBeNull();
      expect(refused.errors?.[0]).toMatchObject({
        message: "Only a main administrator may see an administrator's sessions",
        extensions: { code: "FORBIDDEN" },
      });
      expect(JSON.stringify(refused)).not.toContain("Safari");
    }
    const clientSessions = await gql(SESSIONS, { id: client.id }, asUserAdmin);
    expect(clientSessions.errors).toBeUndefined();
    expect(clientSessions.data?.adminUser).toMatchObject({ sessions: [{ device: "Safari on iOS" }] });

    for (const target of [otherMain, otherUserAdmin, client]) {
      const shown = await gql(SESSIONS, { id: target.id }, asMainAdmin);
      expect([target.userType, shown.errors]).toEqual([target.userType, undefined]);
      expect(shown.data?.adminUser).toMatchObject({ sessions: [{ device: "Safari on iOS" }] });
    }
  });
});

describe("the drawer's detail", () => {
  it("shows the notes the user sent, their appointments, documents and sessions", async () => {
    const admin = await createAdmin(h.db, { userType: "userAdmin" });
    const cookie = await signIn(admin.username);
    const client = await createUser(h.db, { userType: "client" });
    await h.db.prisma.noteHistory.createMany({
      data: [
        { userId: client.id, notes: "First note", wordCount: 2, createdAt: new Date("2026-01-01T10:00:00Z") },
        {
          userId: client.id,
          notes: "Second note please",
          wordCount: 3,
          createdAt: new Date("2026-02-01T10:00:00Z"),
        },
      ],
    });
    const appointment = await createAppointment(h.db, { userId: client.id });
    const document = await createDocument(h.db, { userId: client.id, title: "Tax return 2025" });
    await signIn(client.username, SAFARI_IPHONE);

    const res = await gql(DETAIL, { id: client.id }, cookie);
    const detail = res.data?.adminUser as {
      noteHistory: { notes: string; wordCount: number }[];
      appointments: { id: number }[];
      documents: { id: number; title: string }[];
      sessions: { device: string; ip: string; signedInAt: string; lastSeenAt: string }[];
    };
    expect(detail.noteHistory.map((n) => n.notes)).toEqual(["Second note please", "First note"]);
    expect(detail.appointments.map((a) => a.id)).toEqual([appointment.id]);
    expect(detail.documents).toEqual([{ id: document.id, title: "Tax return 2025" }]);
    expect(detail.sessions).toHaveLength(1);
    expect(detail.sessions[0]).toMatchObject({ device: "Safari on iOS" });
    expect(detail.sessions[0]?.ip).toBeTruthy();
    expect(leakedSecrets(h.bodies)).toEqual([]);
  });
});

describe("the drawer's lists", () => {
  const LISTS = `query($id: Int!, $first: Int) { adminUser(id: $id) {
    noteHistory(first: $first) { id }
    documents(first: $first) { id } } }`;

  it("answer the newest 50 at first and as many as asked for, reading past the document list's page", async () => {
    const admin = await createAdmin(h.db, { userType: "userAdmin" });
    const cookie = await signIn(admin.username);
    const client = await createUser(h.db, { userType: "client" });
    await h.db.prisma.noteHistory.createMany({
      data: Array.from({ length: 130 }, (_, i) => ({
        userId: client.id,
        notes: `Note ${i}`,
        wordCount: 2,
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)),
      })),
    });
    for (let i = 0; i < 130; i += 1)
      await createDocument(h.db, { userId: client.id, title: `Statement ${i}` });
    const notes = await h.db.prisma.noteHistory.findMany({
      where: { userId: client.id },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      select: { id: true },
    });
    const documents = await h.db.prisma.document.findMany({
      where: { userId: client.id },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      select: { id: true },
    });
    type Lists = { noteHistory: { id: number }[]; documents: { id: number }[] };

    const first = (await gql(LISTS, { id: client.id }, cookie)).data?.adminUser as Lists;
    expect(first.noteHistory).toEqual(notes.slice(0, 50));
    expect(first.documents).toEqual(documents.slice(0, 50));
    const more = (await gql(LISTS, { id: client.id, first: 121 }, cookie)).data?.adminUser as Lists;
    expect(more.noteHistory).toEqual(notes.slice(0, 121));
    expect(more.documents).toEqual(documents.slice(0, 121));

    for (const bad of [0, 1001]) {
      const refused = await gql(LISTS, { id: client.id, first: bad }, cookie);
      expect(JSON.stringify(refused.errors)).toContain("first is 1 to 1000");
    }
  });
});

describe("the profile edit", () => {
  it("answers the registration rules' messages and the spec's words for taken names", async () => {
    const admin = await createAdmin(h.db);
    const cookie = await signIn(admin.username);
    const target = await createUser(h.db);
    const other = await createUser(h.db);
    const cases: [Record<string, unknown>, string][] = [
      [{ username: "ab" }, "Username must be at least 3 characters"],
      [{ username: "a@b" }, "Username cannot contain @"],
      [{ email: "not-an-email" }, "Please enter a valid email address"],
      [{ firstName: " " }, "First name is required"],
      [{ lastName: "" }, "Last name is required"],
      [{ phone: "12" }, "Please enter a valid phone number"],
      [{ companyName: "x".repeat(201) }, "Company name must be at most 200 characters"],
      [{ username: other.username.toUpperCase() }, "Username already taken"],
      [{ email: other.email }, "Email already registered"],
    ];
    for (const [change, message] of cases) {
      const res = await gql(
        PROFILE,
        { userId: target.id, input: { ...profileOf(target), ...change } },
        cookie,
      );
      expect(res.data?.adminUpdateUserProfile).toMatchObject({ __typename: "AppError", message });
    }
    const unchanged = await h.db.prisma.user.findUniqueOrThrow({ where: { id: target.id } });
    expect(unchanged.version).toBe(target.version);
  });

  it("saves the profile, raises the version, emits the snapshot, audits before and after, and asks to verify a new email", async () => {
    const admin = await createAdmin(h.db);
    const cookie = await signIn(admin.username);
    const target = await createUser(h.db, {
      userType: "client",
      emailVerified: true,
      phone: "+1 555 010 0000",
    });
    const s = uniqueSuffix();
    const input = {
      username: `edited_${s}`,
      email: `Edited_${s}@Example.test`,
      firstName: "Eda",
      lastName: target.lastName,
      phone: "",
      companyName: "Edited Ltd",
    };
    const res = await gql(PROFILE, { userId: target.id, input }, cookie);
    expect(res.data?.adminUpdateUserProfile).toMatchObject({
      data: {
        username: `edited_${s}`,
        email: `edited_${s}@example.test`,
        firstName: "Eda",
        phone: null,
        companyName: "Edited Ltd",
        emailVerified: false,
      },
    });
    const row = await h.db.prisma.user.findUniqueOrThrow({ where: { id: target.id } });
    expect(row.version).toBe(target.version + 1);

    const events = await h.db.prisma.$queryRaw<{ type: string; payload: Record<string, unknown> }[]>`
      SELECT type, envelope->'payload' AS payload FROM outbox_events
      WHERE (envelope->'payload'->>'userId')::int = ${target.id} ORDER BY id`;
    const updated = events.find((e) => e.type === "user.updated");
    expect(updated?.payload).toMatchObject({
      changedFields: ["username", "email", "firstName", "phone", "companyName", "emailVerified"],
      userVersion: row.version,
      snapshot: {
        username: `edited_${s}`,
        email: `edited_${s}@example.test`,
        phone: null,
        version: row.version,
      },
    });
    expect(events.find((e) => e.type === "user.verification_requested")?.payload).toMatchObject({
      email: `edited_${s}@example.test`,
    });

    const audit = await h.db.prisma.auditLog.findFirstOrThrow({
      where: { action: "user.profile_updated", targetId: String(target.id) },
    });
    expect(audit).toMatchObject({
      actorId: admin.id,
      metadata: {
        before: {
          username: target.username,
          email: target.email,
          phone: "+1 555 010 0000",
          firstName: "Test",
        },
        after: { username: `edited_${s}`, email: `edited_${s}@example.test`, phone: null, firstName: "Eda" },
        emailVerified: { from: true, to: false },
      },
    });
    expect(audit.ip).toBeTruthy();

    // the same profile again changes nothing
    await gql(PROFILE, { userId: target.id, input }, cookie);
    expect((await h.db.prisma.user.findUniqueOrThrow({ where: { id: target.id } })).version).toBe(
      row.version,
    );
  });
});

describe("account actions", () => {
  async function lastAudit(action: string, targetId: number) {
    return h.db.prisma.auditLog.findFirst({
      where: { action, targetId: String(targetId) },
      orderBy: { id: "desc" },
    });
  }

  it("resends verification, marks verified, sends a reset and clears security questions, each audited", async () => {
    const admin = await createAdmin(h.db, { userType: "userAdmin" });
    const cookie = await signIn(admin.username);
    const target = await createUser(h.db, {
      emailVerified: false,
      securityLevel: "enhanced",
      securityQuestionsSet: true,
    });
    await createSecurityQuestions(h.db, target.id);

    const resent = await gql(action("adminResendVerification"), { userId: target.id }, cookie);
    expect(resent.data?.adminResendVerification).toMatchObject({
      data: { message: `A verification link was sent to ${target.email}` },
    });
    expect(await lastAudit("user.verification_sent", target.id)).toMatchObject({ actorId: admin.id });
    const tokens = await h.db.prisma.oneTimeToken.count({
      where: { userId: target.id, purpose: "email_verification", usedAt: null },
    });
    expect(tokens).toBe(1);

    const marked = await gql(action("adminMarkEmailVerified"), { userId: target.id }, cookie);
    expect(marked.data?.adminMarkEmailVerified).toMatchObject({ data: { user: { emailVerified: true } } });
    expect(await lastAudit("user.email_marked_verified", target.id)).toMatchObject({
      actorId: admin.id,
      metadata: { from: false, to: true },
    });
    expect(
      await h.db.prisma.oneTimeToken.count({
        where: { userId: target.id, purpose: "email_verification", usedAt: null },
      }),
    ).toBe(0);
    const again = await gql(action("adminResendVerification"), { userId: target.id }, cookie);
    expect(again.data?.adminResendVerification).toMatchObject({
      code: "FORBIDDEN",
      message: "This email address is already verified",
    });

    const reset = await gql(action("adminSendPasswordReset"), { userId: target.id }, cookie);
    expect(reset.data?.adminSendPasswordReset).toMatchObject({
      data: { message: `Password reset instructions were sent to ${target.email}` },
    });
    expect(await lastAudit("user.password_reset_sent", target.id)).toMatchObject({ actorId: admin.id });
    const [resetEvent] = await h.db.prisma.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM outbox_events
      WHERE type = 'user.password_reset_requested' AND (envelope->'payload'->>'userId')::int = ${target.id}`;
    expect(resetEvent?.n).toBe(1);

    const cleared = await gql(action("adminClearSecurityQuestions"), { userId: target.id }, cookie);
    expect(cleared.data?.adminClearSecurityQuestions).toMatchObject({
      data: { user: { securityQuestionsSet: false, securityLevel: "standard" } },
    });
    expect(await h.db.prisma.securityQuestions.count({ where: { userId: target.id } })).toBe(0);
    expect(await lastAudit("user.security_questions_cleared", target.id)).toMatchObject({
      actorId: admin.id,
      metadata: {
        before: { securityQuestionsSet: true, securityLevel: "enhanced" },
        after: { securityQuestionsSet: false, securityLevel: "standard" },
      },
    });
    // the user signs in with the password alone again
    await signIn(target.username);

    await gql(STATUS, { userId: target.id, status: "inactive" }, cookie);
    const refused = await gql(action("adminSendPasswordReset"), { userId: target.id }, cookie);
    expect(refused.data?.adminSendPasswordReset).toMatchObject({
      code: "FORBIDDEN",
      message: "This account is inactive: activate it first",
    });
    expect(leakedSecrets(h.bodies)).toEqual([]);
  });
});

describe("resending an invitation", () => {
  const PENDING = `query($id: Int!) { adminUser(id: $id) { invitationPending } }`;

  async function invited(by: { id: number; userType: UserType }) {
    const s = uniqueSuffix();
    return createInvitedUser({
      db: h.db,
      actor: { ...by, name: "Grace Hopper" },
      input: {
        username: `invitee${s}`,
        email: `invitee${s}@example.com`,
        firstName: "Ivy",
        lastName: "Invitee",
        userType: "client",
        phone: undefined,
        companyName: undefined,
      },
    });
  }

  const invitations = (userId: number) =>
    h.db.prisma.oneTimeToken.findMany({ where: { userId, purpose: "invitation" }, orderBy: { id: "asc" } });

  it("sends a new link to a user who has not set a password, the old link dead, audited; refused once one is set", async () => {
    const admin = await createAdmin(h.db, { userType: "userAdmin" });
    const cookie = await signIn(admin.username);
    const user = await invited(admin);
    expect((await gql(PENDING, { id: user.id }, cookie)).data?.adminUser).toEqual({
      invitationPending: true,
    });

    const resent = await gql(action("adminResendInvitation"), { userId: user.id }, cookie);
    expect(resent.data?.adminResendInvitation).toMatchObject({
      data: { message: `A new invitation was sent to ${user.email}` },
    });
    const tokens = await invitations(user.id);
    expect(tokens).toHaveLength(2);
    expect(tokens[0]?.usedAt).not.toBeNull();
    expect(tokens[1]?.usedAt).toBeNull();
    const [events] = await h.db.prisma.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM outbox_events
      WHERE type = 'user.invited' AND (envelope->'payload'->>'userId')::int = ${user.id}`;
    expect(events?.n).toBe(2);
    expect(
      await h.db.prisma.auditLog.findFirst({
        where: { action: "user.invitation_resent", targetId: String(user.id) },
      }),
    ).toMatchObject({ actorId: admin.id });

    // the owner sets a password (here: the row gets a real hash): a reset is what helps now
    const withPassword = await createUser(h.db);
    await h.db.prisma.user.update({ where: { id: user.id }, data: { password: withPassword.password } });
    expect((await gql(PENDING, { id: user.id }, cookie)).data?.adminUser).toEqual({
      invitationPending: false,
    });
    const refused = await gql(action("adminResendInvitation"), { userId: user.id }, cookie);
    expect(refused.data?.adminResendInvitation).toMatchObject({
      code: "FORBIDDEN",
      message: "This user has already set a password: send a password reset instead",
    });
    expect(await invitations(user.id)).toHaveLength(2);
    expect(leakedSecrets(h.bodies)).toEqual([]);
  });

  it.each(ACTORS)("answers a %s as the matrix says", async (kind) => {
    const cookie = await cookieOf(kind);
    const inviter = await createAdmin(h.db);
    const user = await invited(inviter);
    const res = await gql(action("adminResendInvitation"), { userId: user.id }, cookie);
    const want = expected(kind);
    if (want === "ok")
      expect(res.data?.adminResendInvitation).toMatchObject({
        __typename: successName("adminResendInvitation"),
      });
    else expect(codeOf(res, "adminResendInvitation")).toBe(want);
    const pending = await gql(PENDING, { id: user.id }, cookie);
    if (want === "ok") expect(pending.data?.adminUser).toEqual({ invitationPending: true });
    else expect(pending.errors?.[0]?.extensions?.code).toBe(want);
    expect(await invitations(user.id)).toHaveLength(want === "ok" ? 2 : 1);
  });
});

describe("sessions", () => {
  it("lists device, address, signed-in and last-seen times; the session check moves nothing; revoking ends at once", async () => {
    const admin = await createAdmin(h.db);
    const adminCookie = await signIn(admin.username);
    const user = await createUser(h.db, { userType: "client" });
    const laptop = await signIn(user.username, CHROME_LINUX);
    const phone = await signIn(user.email, SAFARI_IPHONE);
    const list = async () =>
      (
        ((await gql(DETAIL, { id: user.id }, adminCookie)).data?.adminUser ?? {}) as {
          sessions: { id: string; device: string; ip: string; signedInAt: string; lastSeenAt: string }[];
        }
      ).sessions;
    const before = await list();
    expect(before.map((s) => s.device).sort()).toEqual(["Chrome on Linux", "Safari on iOS"]);
    for (const s of before) {
      expect(s.id).toMatch(/^[0-9a-f]{32}$/);
      expect(new Date(s.lastSeenAt).getTime()).toBeGreaterThanOrEqual(new Date(s.signedInAt).getTime());
    }
    // no session id leaves the server
    const sids = [laptop, phone].map((c) => sessionStoreKey(c).split(":").at(-1) ?? "");
    for (const sid of sids) expect(JSON.stringify(before)).not.toContain(sid);

    // both signed in 25 minutes ago and idle for 20; then a request is activity, the session check is not
    for (const cookie of [laptop, phone]) {
      const record = JSON.parse((await h.redis.get(sessionStoreKey(cookie))) ?? "{}") as Record<
        string,
        unknown
      >;
      const at = Date.now() - 25 * 60 * 1000;
      await h.redis.set(sessionStoreKey(cookie), JSON.stringify({ ...record, loginAt: at, issuedAt: at }), {
        PX: 10 * 60 * 1000,
      });
    }
    await request(h.app).get("/api/session-check").set("Cookie", phone);
    await request(h.app).get("/api/user").set("Cookie", laptop);
    const after = await list();
    const seen = (device: string) =>
      new Date(after.find((s) => s.device === device)?.lastSeenAt ?? 0).getTime();
    expect(Date.now() - seen("Chrome on Linux")).toBeLessThan(60_000);
    expect(Date.now() - seen("Safari on iOS")).toBeGreaterThan(19 * 60 * 1000);
    expect(after[0]?.device).toBe("Chrome on Linux");

    const phoneId = after.find((s) => s.device === "Safari on iOS")?.id;
    const one = await gql(REVOKE_ONE, { userId: user.id, sessionId: phoneId }, adminCookie);
    expect(one.data?.adminRevokeUserSession).toMatchObject({ data: { ended: 1 } });
    expect(await h.redis.exists(sessionStoreKey(phone))).toBe(0);
    expect((await request(h.app).get("/api/user").set("Cookie", phone)).status).toBe(401);
    expect((await request(h.app).get("/api/user").set("Cookie", laptop)).status).toBe(200);
    expect(await list()).toHaveLength(1);
    const unknown = await gql(REVOKE_ONE, { userId: user.id, sessionId: "not-a-handle" }, adminCookie);
    expect(unknown.data?.adminRevokeUserSession).toMatchObject({ code: "VALIDATION_FAILED" });

    const tablet = await signIn(
      user.username,
      "Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0",
    );
    const all = await gql(REVOKE_ALL, { userId: user.id }, adminCookie);
    expect(all.data?.adminRevokeUserSessions).toMatchObject({ data: { ended: 2 } });
    for (const cookie of [laptop, tablet]) {
      expect(await h.redis.exists(sessionStoreKey(cookie))).toBe(0);
      expect((await request(h.app).get("/api/user").set("Cookie", cookie)).status).toBe(401);
    }
    expect(await list()).toEqual([]);
    const rows = await h.db.prisma.auditLog.findMany({
      where: { targetId: String(user.id), action: { in: ["user.session_revoked", "user.sessions_revoked"] } },
      orderBy: { id: "asc" },
    });
    expect(rows.map((r) => [r.action, r.actorId, r.metadata])).toEqual([
      ["user.session_revoked", admin.id, { ended: 1 }],
      ["user.sessions_revoked", admin.id, { ended: 2 }],
    ]);
    // the user signs in again as usual
    await signIn(user.username);
  });

  it("promotes a signed-in prospect, who opens the client's documents without signing in again", async () => {
    const admin = await createAdmin(h.db, { userType: "userAdmin" });
    const adminCookie = await signIn(admin.username);
    const prospect = await createUser(h.db, { userType: "prospect" });
    const cookie = await signIn(prospect.username);
    expect(codeOf(await gql(MY_DOCUMENTS, {}, cookie), "myDocuments")).toBe("FORBIDDEN");
    await gql(TYPE, { userId: prospect.id, userType: "client" }, adminCookie);
    const docs = await gql(MY_DOCUMENTS, {}, cookie);
    expect(docs.data?.myDocuments).toEqual({ totalCount: 0 });
    expect(await h.redis.exists(sessionStoreKey(cookie))).toBe(1);
  });

  it.each(["inactive", "archived"])("refuses a %s user's next request and their sign-in", async (status) => {
    const admin = await createAdmin(h.db, { userType: "userAdmin" });
    const adminCookie = await signIn(admin.username);
    const user = await createUser(h.db, { userType: "client" });
    const cookie = await signIn(user.username);
    expect((await request(h.app).get("/api/user").set("Cookie", cookie)).status).toBe(200);
    await gql(STATUS, { userId: user.id, status }, adminCookie);
    expect((await request(h.app).get("/api/session-check").set("Cookie", cookie)).status).toBe(401);
    expect((await request(h.app).get("/api/user").set("Cookie", cookie)).status).toBe(401);
    const login = await request(h.app)
      .post("/api/login")
      .send({ login: user.username, password: TEST_PASSWORD });
    expect(login.status).toBe(403);
    expect(login.body.status).toBe(status === "inactive" ? "deactivated" : "archived");
  });
});
