import { config, setConfig } from "@services/shared/config";
import { createAdmin, createUser } from "@services/shared/testing/factories";
import { axeFindings } from "./support/axe";
import { PHONE, pastTheOverlay, sidewaysScroll } from "./support/portal";
import { browserSuite } from "./support/suite";

// The role switcher in Chromium (issue 21): a mainAdmin generates demo data on Testing Tools, opens
// the role switcher from there and, in one click, is the demo client on the client's dashboard;
// from there, the switcher takes them on to the demo main admin. The page passes axe and fits a
// phone; a client is refused; in production it is the 404 page and the server refuses. A database
// of the file's own: demo data is the whole database's.

const suite = browserSuite({}, { isolatedDatabase: true });

describe("the role switcher", () => {
  it("signs a mainAdmin in as the demo client from Testing Tools, then on as the demo main admin", async () => {
    const admin = await createAdmin(suite.db());
    const page = await suite.signedIn(admin, "/admin/testing", { bypassCSP: true });
    await page.getByRole("heading", { level: 1, name: "Testing Tools" }).waitFor();
    await page.getByRole("button", { name: "Generate demo data" }).click();
    // generating makes eight accounts (a password hash each), their appointments and stored files:
    // seconds, more on a loaded machine
    await page.getByText("8 demo users exist, 5 of them clients.").waitFor({ timeout: 30_000 });

    await page.getByRole("link", { name: "Open the role switcher" }).click();
    await page.waitForURL(`${suite.server().url}/dev/roles`);
    await page.getByRole("heading", { level: 1, name: "Role Switcher" }).waitFor();
    const table = page.getByRole("table", { name: "Demo users" });
    await table.locator("tbody tr").first().waitFor();
    await expect(table.locator("tbody th").allTextContents()).resolves.toEqual([
      "Prospect",
      "Client",
      "User admin",
      "Main admin",
    ]);
    expect(await axeFindings(page)).toEqual([]);

    await page.getByRole("button", { name: "Sign in as Client" }).click();
    await page.waitForURL(`${suite.server().url}/dashboard`);
    await pastTheOverlay(page);
    await page.getByRole("heading", { level: 1, name: "Your console" }).waitFor();
    await page.getByRole("button", { name: "Welcome, Avery" }).waitFor();
    // a client's top bar: no Admin Dashboard
    await expect(page.getByRole("link", { name: "Admin Dashboard" }).count()).resolves.toBe(0);

    // the switched session goes on to another role, on the admin's authority
    await page.goto(`${suite.server().url}/dev/roles`);
    await page.getByText(/You are Avery Demo, the demo client, through .+'s role switch\./).waitFor();
    await expect(page.getByRole("button", { name: "Signed in" }).isDisabled()).resolves.toBe(true);
    await page.getByRole("button", { name: "Sign in as Main admin" }).click();
    await page.waitForURL(`${suite.server().url}/admin/dashboard`);
    await page.getByRole("heading", { level: 1, name: "Admin Dashboard" }).waitFor();
    await page.getByRole("button", { name: "Welcome, Morgan" }).waitFor();

    const phone = await suite.signedIn(admin, "/dev/roles", PHONE);
    await phone.getByRole("table", { name: "Demo users" }).locator("tbody tr").first().waitFor();
    expect(await axeFindings(phone)).toEqual([]);
    expect(await sidewaysScroll(phone)).toBeLessThanOrEqual(0);
  });

  it("tells a client 'Permission Denied'", async () => {
    const client = await createUser(suite.db(), { userType: "client" });
    const page = await suite.signedIn(client, "/dev/roles");
    await page.getByRole("alert").filter({ hasText: "Permission Denied" }).waitFor();
    await expect(page.getByRole("table", { name: "Demo users" }).count()).resolves.toBe(0);
  });

  it("is the 404 page in production, and the server refuses the switch", async () => {
    const admin = await createAdmin(suite.db());
    const saved = config();
    const page = await suite.signedIn(admin, "/admin");
    await page.getByRole("heading", { level: 1, name: "Admin Dashboard" }).waitFor();
    setConfig({ ...saved, NODE_ENV: "production" });
    try {
      await page.goto(`${suite.server().url}/dev/roles`);
      await page.getByRole("heading", { level: 1, name: "404 Page Not Found" }).waitFor();
      const demo = await suite.db().prisma.user.findFirst({ where: { isDemo: true } });
      const res = await page.request.post(`${suite.server().url}/api/dev/roles/switch`, {
        data: { userId: demo?.id ?? 1 },
        headers: { Origin: suite.server().url },
      });
      expect(res.status()).toBe(404);
      await expect(res.json()).resolves.toEqual({ message: "Not found" });
    } finally {
      setConfig(saved);
    }
  });
});
