import { createApp } from "@gateway/app";
import { fakeWebDist, testConfig } from "@gateway/testing/appHarness";
import { sessionCookieOf } from "@gateway/testing/identityHarness";
import { PortalMemoryStore } from "@services/shared/sessionStore";
import { testDb } from "@services/shared/testing/db";
import { createAdmin, createUser, TEST_PASSWORD } from "@services/shared/testing/factories";
import request from "supertest";
import { deviceLabel } from "./deviceLabel";

// A user's sessions as an administrator sees them, in the embedded mode (sessions and their index in
// this process's memory): listed with device and address, one revoked, then all. The same over
// Redis is in modules/users/adminUser.test.ts.

describe("deviceLabel", () => {
  it.each([
    [
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
      "Chrome on Linux",
    ],
    [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
      "Edge on Windows",
    ],
    [
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:133.0) Gecko/20100101 Firefox/133.0",
      "Firefox on macOS",
    ],
    [
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
      "Safari on macOS",
    ],
    [
      "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
      "Chrome on Android",
    ],
    ["curl/8.5.0", "curl"],
    ["", "Unknown device"],
    [undefined, "Unknown device"],
    ["SomeBot\u0007/1.0 ".padEnd(100, "x"), `SomeBot/1.0 ${"x".repeat(47)}…`],
  ])("names %s", (agent, label) => {
    expect(deviceLabel(agent)).toBe(label);
  });
});

describe("a user's sessions without Redis (embedded mode)", () => {
  const web = fakeWebDist();
  afterAll(() => web.remove());

  it("lists, revokes one and revokes all", async () => {
    const db = await testDb();
    const { app, stop } = await createApp({
      config: testConfig(),
      db,
      readiness: {},
      sessionStore: new PortalMemoryStore(),
      webDist: web.dir,
    });
    try {
      const login = async (name: string, agent: string) => {
        const res = await request(app)
          .post("/api/login")
          .set("User-Agent", agent)
          .send({ login: name, password: TEST_PASSWORD });
        expect(res.status).toBe(200);
        return sessionCookieOf(res) ?? "";
      };
      const admin = await createAdmin(db, { userType: "userAdmin" });
      const adminCookie = await login(admin.username, "curl/8.5.0");
      const user = await createUser(db, { userType: "client" });
      const one = await login(user.username, "Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0");
      const two = await login(
        user.username,
        "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0.0.0 Safari/537.36",
      );
      const gql = async (query: string, variables: Record<string, unknown>) =>
        (await request(app).post("/graphql").set("Cookie", adminCookie).send({ query, variables })).body;

      const LIST = "query($id: Int!) { adminUser(id: $id) { sessions { id device ip } } }";
      const listed = (await gql(LIST, { id: user.id })).data.adminUser.sessions as {
        id: string;
        device: string;
      }[];
      expect(listed.map((s) => s.device).sort()).toEqual(["Chrome on Linux", "Firefox on Linux"]);
      const firefox = listed.find((s) => s.device === "Firefox on Linux")?.id;

      const revoked = await gql(
        `mutation($userId: Int!, $sessionId: String!) { adminRevokeUserSession(userId: $userId, sessionId: $sessionId) {
          ... on MutationAdminRevokeUserSessionSuccess { data { ended } } } }`,
        { userId: user.id, sessionId: firefox },
      );
      expect(revoked.data.adminRevokeUserSession.data.ended).toBe(1);
      expect((await request(app).get("/api/user").set("Cookie", one)).status).toBe(401);
      expect((await request(app).get("/api/user").set("Cookie", two)).status).toBe(200);

      const all = await gql(
        `mutation($userId: Int!) { adminRevokeUserSessions(userId: $userId) {
          ... on MutationAdminRevokeUserSessionsSuccess { data { ended } } } }`,
        { userId: user.id },
      );
      expect(all.data.adminRevokeUserSessions.data.ended).toBe(1);
      expect((await request(app).get("/api/user").set("Cookie", two)).status).toBe(401);
      expect((await gql(LIST, { id: user.id })).data.adminUser.sessions).toEqual([]);
      expect((await request(app).get("/api/user").set("Cookie", adminCookie)).status).toBe(200);
    } finally {
      await stop();
    }
  });
});
