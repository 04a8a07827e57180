import { testDb } from "@services/shared/testing/db";
import { createAdmin, createUser } from "@services/shared/testing/factories";
import { type PortalPage, signInThroughApi, waitForToast } from "./support/portal";
import { browserSuite } from "./support/suite";

// The route guards of spec §4 and the top bar's admin link (spec §2), per user type.

const suite = browserSuite();
let portal: PortalPage;

const mainNav = (p: PortalPage) => p.page.getByRole("navigation", { name: "Main" });

describe("route guards in the browser", () => {
  it("sends a prospect from /documents to /prospect-landing with the 'Access Restricted' toast", async () => {
    const db = await testDb();
    const prospect = await createUser(db, { userType: "prospect" });
    portal = await suite.open();
    await signInThroughApi(portal.page, suite.server(), prospect.username);

    await portal.page.goto(`${suite.server().url}/documents`);
    await portal.page.waitForURL(`${suite.server().url}/prospect-landing`);
    await waitForToast(
      portal.page,
      "Access Restricted This feature is only available to clients. Please contact your administrator for assistance.",
    );
    expect(portal.problems.messages).toEqual([]);
  });

  it("lets a client open /documents", async () => {
    const db = await testDb();
    const client = await createUser(db, { userType: "client" });
    portal = await suite.open();
    await signInThroughApi(portal.page, suite.server(), client.username);

    await portal.page.goto(`${suite.server().url}/documents`);
    await portal.page.getByRole("heading", { level: 1, name: "Documents" }).waitFor();
    expect(new URL(portal.page.url()).pathname).toBe("/documents");
    expect(portal.problems.messages).toEqual([]);
  });

  it("shows the Admin Dashboard link to admins only", async () => {
    const db = await testDb();
    const cases = [
      [await createAdmin(db), true],
      [await createAdmin(db, { userType: "userAdmin" }), true],
      [await createUser(db, { userType: "client" }), false],
      [await createUser(db, { userType: "prospect" }), false],
    ] as const;
    for (const [user, sees] of cases) {
      portal = await suite.open();
      await signInThroughApi(portal.page, suite.server(), user.username);
      await portal.page.goto(`${suite.server().url}/pro-app-features`);
      await portal.page.getByText(`Welcome, ${user.firstName}`, { exact: true }).waitFor();
      const links = await mainNav(portal).getByRole("link").allInnerTexts();
      expect({ userType: user.userType, sees: links.includes("Admin Dashboard") }).toEqual({
        userType: user.userType,
        sees,
      });
      expect(portal.problems.messages).toEqual([]);
      await portal.close();
    }
  });

  it("sends a non-admin from /admin/user-management to /dashboard", async () => {
    const db = await testDb();
    const client = await createUser(db, { userType: "client" });
    portal = await suite.open();
    await signInThroughApi(portal.page, suite.server(), client.username);

    await portal.page.goto(`${suite.server().url}/admin/user-management`);
    await portal.page.waitForURL(`${suite.server().url}/dashboard`);
    await expect(portal.page.getByRole("heading", { name: "User Management" }).count()).resolves.toBe(0);
    expect(portal.problems.messages).toEqual([]);
  });

  it("tells a user admin without manage:config 'Permission Denied' on /admin/storage, with a way back", async () => {
    const db = await testDb();
    const userAdmin = await createAdmin(db, { userType: "userAdmin" });
    portal = await suite.open();
    const { page } = portal;
    await signInThroughApi(page, suite.server(), userAdmin.username);

    await page.goto(`${suite.server().url}/admin/storage`);
    const alert = page.getByRole("alert").filter({ hasText: "Permission Denied" });
    await alert.waitFor();
    await expect(alert.textContent()).resolves.toContain(
      "You don't have the necessary permissions to access this area.",
    );
    await expect(page.getByRole("heading", { name: "Storage Settings" }).count()).resolves.toBe(0);

    await alert.getByRole("button", { name: "Back to Dashboard" }).click();
    await page.waitForURL(`${suite.server().url}/dashboard`);
    expect(portal.problems.messages).toEqual([]);
  });

  it("lets a main admin open /admin/storage", async () => {
    const db = await testDb();
    const admin = await createAdmin(db);
    portal = await suite.open();
    await signInThroughApi(portal.page, suite.server(), admin.username);

    await portal.page.goto(`${suite.server().url}/admin/storage`);
    await portal.page.getByRole("heading", { level: 1, name: "Storage Settings" }).waitFor();
    expect(portal.problems.messages).toEqual([]);
  });
});
