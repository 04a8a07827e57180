import { isolatedAppFixture, postGraphql, refusal } from "@gateway/testing/fixtures";
import { sessionCookieOf } from "@gateway/testing/identityHarness";
import { generateDemoData, removeDemoData } from "@services/diagnostics";
import { config, setConfig } from "@services/shared/config";
import type { User } from "@services/shared/generated/prisma/client";
import type { UserType } from "@services/shared/generated/prisma/enums";
import { createAdmin, createUser, TEST_PASSWORD } from "@services/shared/testing/factories";
import { totpCodeAt } from "@services/user";
import request from "supertest";

// The role switcher (issue 21): who may sign in as a demo user (a mainAdmin, or a session a role
// switch began), as whom (an active demo user, never anyone else), and where (never in production,
// where it answers 404 as a path nothing answers). A database of the file's own: the demo data is
// the database's, and the last test requires two-factor sign-in of administrators.

let main: { user: User; cookie: string } | undefined;
const h = isolatedAppFixture({
  beforeClose: async () => {
    if (main) await removeDemoData({ db: h.db, actorId: main.user.id });
  },
});

const SWITCH = "/api/dev/roles/switch";
const ROLES = `{ demoRoles { __typename ... on AppError { code message }
  ... on QueryDemoRolesSuccess { data { currentUserId switchedBy users { id userType firstName lastName email } } } } }`;

interface DemoRoleUser {
  id: number;
  userType: UserType;
  firstName: string;
  lastName: string;
  email: string;
}
interface DemoRoles {
  currentUserId: number;
  switchedBy: string | null;
  users: DemoRoleUser[];
}

async function signIn(username: string) {
  const res = await request(h.app).post("/api/login").send({ login: username, password: TEST_PASSWORD });
  return { body: res.body as Record<string, unknown>, cookie: sessionCookieOf(res) ?? "" };
}

async function userOf(userType: UserType): Promise<{ user: User; cookie: string }> {
  const user =
    userType === "mainAdmin" || userType === "userAdmin"
      ? await createAdmin(h.db, { userType })
      : await createUser(h.db, { userType });
  const { cookie } = await signIn(user.username);
  expect(cookie).not.toBe("");
  return { user, cookie };
}

const switchTo = (cookie: string, body: unknown) =>
  request(h.app)
    .post(SWITCH)
    .set("Cookie", cookie)
    .send(body as object);
const currentUser = (cookie: string) => request(h.app).get("/api/user").set("Cookie", cookie);
const gql = (query: string, cookie = "") => postGraphql(h.app, query, cookie);

async function demoRoles(cookie: string): Promise<DemoRoles> {
  const res = await gql(ROLES, cookie);
  const answer = res.data?.demoRoles as { __typename: string; data?: DemoRoles };
  expect(answer.__typename).toBe("QueryDemoRolesSuccess");
  return answer.data as DemoRoles;
}

const switches = () =>
  h.db.prisma.auditLog.findMany({ where: { action: "user.role_switched" }, orderBy: { id: "asc" } });

beforeAll(async () => {
  main = await userOf("mainAdmin");
  await generateDemoData({ db: h.db, actorId: main.user.id });
});

describe("the role switcher", () => {
  it("is refused to the signed out (401) and to every other role (403), on both surfaces", async () => {
    const [demo] = (await demoRoles((await userOf("mainAdmin")).cookie)).users;
    const body = { userId: demo?.id };
    const signedOut = await switchTo("", body);
    expect(signedOut.status).toBe(401);
    expect(refusal(await gql(ROLES), "demoRoles")).toBe("UNAUTHENTICATED");
    for (const userType of ["userAdmin", "client", "prospect", "user"] as const) {
      const { cookie, user } = await userOf(userType);
      const res = await switchTo(cookie, body);
      expect([userType, res.status]).toEqual([userType, 403]);
      expect(refusal(await gql(ROLES, cookie), "demoRoles")).toBe("FORBIDDEN");
      // still signed in as themselves
      expect((await currentUser(cookie)).body).toMatchObject({ id: user.id, userType });
    }
    // a cross-site request changes nothing, even a mainAdmin's
    const admin = await userOf("mainAdmin");
    const crossSite = await switchTo(admin.cookie, body).set("Origin", "https://evil.example");
    expect(crossSite.status).toBe(403);
    expect((await currentUser(admin.cookie)).body).toMatchObject({ id: admin.user.id });
    expect(await switches()).toEqual([]);
  });

  it("never signs in as anyone but an active demo user", async () => {
    const admin = await userOf("mainAdmin");
    const realClient = await createUser(h.db, { userType: "client" });
    const realAdmin = await createAdmin(h.db);
    const inactiveDemo = await createUser(h.db, { userType: "client", isDemo: true, userStatus: "inactive" });
    for (const userId of [realClient.id, realAdmin.id, admin.user.id, inactiveDemo.id, 2_147_483_647]) {
      const res = await switchTo(admin.cookie, { userId });
      expect([userId, res.status, res.body.message]).toEqual([userId, 404, "No demo user with this id"]);
    }
    for (const body of [{}, { userId: "one" }, { userId: 0 }, { userId: realClient.username }]) {
      expect((await switchTo(admin.cookie, body)).status).toBe(400);
    }
    expect((await currentUser(admin.cookie)).body).toMatchObject({
      id: admin.user.id,
      userType: "mainAdmin",
    });
    expect(await switches()).toEqual([]);
  });

  it("lists one demo user of each role to a mainAdmin", async () => {
    const admin = await userOf("mainAdmin");
    const roles = await demoRoles(admin.cookie);
    expect(roles.users.map((u) => u.userType)).toEqual(["prospect", "client", "userAdmin", "mainAdmin"]);
    expect(roles).toMatchObject({ currentUserId: admin.user.id, switchedBy: null });
    for (const u of roles.users) expect(u.email).toMatch(/@demo\.invalid$/);
  });

  it("signs a mainAdmin in as each role: a new session of that role, audited", async () => {
    const { users } = await demoRoles((await userOf("mainAdmin")).cookie);
    for (const demo of users) {
      const admin = await userOf("mainAdmin");
      const res = await switchTo(admin.cookie, { userId: demo.id });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: demo.id, userType: demo.userType });
      expect(res.body).not.toHaveProperty("needsTwoFactorEnrolment");
      const cookie = sessionCookieOf(res) ?? "";
      expect(cookie).not.toBe("");
      expect(cookie).not.toBe(admin.cookie);
      // the session is the demo user's, with that role's rights; the admin's old session id is gone
      expect((await currentUser(cookie)).body).toMatchObject({ id: demo.id, userType: demo.userType });
      const check = await request(h.app)
        .get("/api/auth/check-permissions?permissions=manage:config")
        .set("Cookie", cookie);
      expect(check.body).toMatchObject({
        isAdmin: demo.userType === "mainAdmin" || demo.userType === "userAdmin",
        hasPermissions: demo.userType === "mainAdmin",
      });
      expect((await currentUser(admin.cookie)).status).toBe(401);
      const [audit] = (await switches()).slice(-1);
      expect(audit).toMatchObject({ actorId: admin.user.id, targetType: "user", targetId: String(demo.id) });
      expect(audit?.metadata).toEqual({ userType: demo.userType, previousUserId: admin.user.id });
    }
  });

  it("goes from role to role on the authority of the mainAdmin behind the session, while it lasts", async () => {
    const admin = await userOf("mainAdmin");
    const { users } = await demoRoles(admin.cookie);
    const [prospect, client] = users;
    const asClient = sessionCookieOf(await switchTo(admin.cookie, { userId: client?.id })) ?? "";
    const roles = await demoRoles(asClient);
    expect(roles).toMatchObject({
      currentUserId: client?.id,
      switchedBy: `${admin.user.firstName} ${admin.user.lastName}`,
    });
    const again = await switchTo(asClient, { userId: prospect?.id });
    expect(again.status).toBe(200);
    const asProspect = sessionCookieOf(again) ?? "";
    expect((await currentUser(asProspect)).body).toMatchObject({ id: prospect?.id, userType: "prospect" });
    const [audit] = (await switches()).slice(-1);
    expect(audit).toMatchObject({ actorId: admin.user.id, targetId: String(prospect?.id) });
    expect(audit?.metadata).toEqual({ userType: "prospect", previousUserId: client?.id });
    // a switched session still never reaches a real account
    const real = await createUser(h.db, { userType: "client" });
    expect((await switchTo(asProspect, { userId: real.id })).status).toBe(404);

    // the mainAdmin's authority gone (deactivated), the switched session ends with it
    await h.db.prisma.user.update({ where: { id: admin.user.id }, data: { userStatus: "inactive" } });
    expect((await currentUser(asProspect)).status).toBe(401);
  });

  it("is absent in production: 404 to everyone, and a switched session ends", async () => {
    const admin = await userOf("mainAdmin");
    const { users } = await demoRoles(admin.cookie);
    const asClient = sessionCookieOf(await switchTo(admin.cookie, { userId: users[1]?.id })) ?? "";
    expect((await currentUser(asClient)).status).toBe(200);
    const other = await userOf("mainAdmin");
    const client = await userOf("client");
    const before = (await switches()).length;
    const saved = config();
    setConfig({ ...saved, NODE_ENV: "production" });
    try {
      for (const cookie of ["", client.cookie, other.cookie]) {
        for (const body of [{ userId: users[3]?.id }, { userId: "x" }, {}]) {
          const res = await switchTo(cookie, body);
          expect([res.status, res.body]).toEqual([404, { message: "Not found" }]);
        }
        expect(refusal(await gql(ROLES, cookie), "demoRoles")).toBe("NOT_FOUND");
      }
      // the switched session is ended on its next request
      expect((await currentUser(asClient)).status).toBe(401);
      expect((await currentUser(other.cookie)).body).toMatchObject({ id: other.user.id });
    } finally {
      setConfig(saved);
    }
    expect((await switches()).length).toBe(before);
  });

  it("with two-factor sign-in required of administrators: a switched demo admin is signed in fully; an admin yet to enrol cannot switch", async () => {
    const admin = await userOf("mainAdmin");
    const started = await gql(
      "mutation { startAuthenticator { ... on MutationStartAuthenticatorSuccess { data { secret } } } }",
      admin.cookie,
    );
    const secret =
      (started.data?.startAuthenticator as { data?: { secret: string } } | undefined)?.data?.secret ?? "";
    await gql(
      `mutation { confirmAuthenticator(code: "${totpCodeAt(secret)}") { __typename } }`,
      admin.cookie,
    );
    const settings = await gql(
      `{ securitySettings { requireVerifiedEmail revealUnknownAccounts requireEnhancedForAdmins
        minPasswordLength loginIpAttempts loginAccountFreeFailures loginAccountMaxDelayMinutes } }`,
      admin.cookie,
    );
    const saved = await postGraphql(
      h.app,
      `mutation ($input: SecuritySettingsInput!) { updateSecuritySettings(input: $input) {
        ... on MutationUpdateSecuritySettingsSuccess { data { requireTwoFactorForAdmins } } } }`,
      admin.cookie,
      { input: { ...(settings.data?.securitySettings as object), requireTwoFactorForAdmins: true } },
    );
    expect(saved.data?.updateSecuritySettings).toEqual({ data: { requireTwoFactorForAdmins: true } });

    const { users } = await demoRoles(admin.cookie);
    const demoAdmin = users.find((u) => u.userType === "userAdmin");
    const res = await switchTo(admin.cookie, { userId: demoAdmin?.id });
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty("needsTwoFactorEnrolment");
    const cookie = sessionCookieOf(res) ?? "";
    expect((await currentUser(cookie)).body).not.toHaveProperty("needsTwoFactorEnrolment");
    const check = await request(h.app)
      .get("/api/auth/check-permissions?permissions=manage:users")
      .set("Cookie", cookie);
    expect([check.status, check.body.hasPermissions]).toEqual([200, true]);

    // an administrator whom the settings hold to enrolment is refused, and told why
    const unenrolled = await userOf("mainAdmin");
    const refused = await switchTo(unenrolled.cookie, { userId: demoAdmin?.id });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ needsTwoFactorEnrolment: true });
  });
});
