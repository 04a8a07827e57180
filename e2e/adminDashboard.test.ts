import { readFile } from "node:fs/promises";
import { waitFor } from "@services/shared/events/testing/bus";
import { createAdmin, createDocument, createUser } from "@services/shared/testing/factories";
import { parse as parseCsv } from "csv-parse/sync";
import type { Page } from "playwright-core";
import { axeFindings } from "./support/axe";
import { downloadedFile } from "./support/browser";
import { PHONE, pressEnterOn, sidewaysScroll, tabTo } from "./support/portal";
import { browserSuite } from "./support/suite";

// The admin dashboard in Chromium (issue 11), on a database of the file's own so that its figures
// are exactly what the file seeds: an admin reads the cards and follows one; a userAdmin sees no
// link to a page they cannot open; a client at /admin reads 'Permission Denied'; the audit view
// filters and exports; the page passes axe, works by keyboard and fits a 375 px wide screen.

const suite = browserSuite({}, { isolatedDatabase: true });

const seeded: {
  admin?: Awaited<ReturnType<typeof createAdmin>>;
  userAdmin?: Awaited<ReturnType<typeof createAdmin>>;
  client?: Awaited<ReturnType<typeof createUser>>;
} = {};

beforeAll(async () => {
  const db = suite.db();
  seeded.admin = await createAdmin(db, { firstName: "Ada", lastName: "Main" });
  seeded.userAdmin = await createAdmin(db, { userType: "userAdmin", firstName: "Uma", lastName: "Users" });
  seeded.client = await createUser(db, { userType: "client", firstName: "Cleo", lastName: "Client" });
  await createUser(db, { userType: "prospect" });
  await createUser(db, { userType: "prospect", emailVerified: false });
  await createUser(db, { userType: "prospect", userStatus: "inactive" });
  await createDocument(db, { userId: seeded.client.id, status: "pending" });
  await createDocument(db, { userId: seeded.client.id, status: "pending" });
  await createDocument(db, { userId: seeded.client.id, status: "approved" });
});

function need<T>(value: T | undefined): T {
  if (value === undefined) throw new Error("not seeded");
  return value;
}

const card = (page: Page, title: string) =>
  page
    .locator(".dashboard-card")
    .filter({ has: page.getByRole("heading", { level: 2, name: title, exact: true }) });

describe("the admin dashboard", () => {
  it("an admin reads the figures and follows a card to the page that acts on it", async () => {
    const page = await suite.signedIn(need(seeded.admin), "/admin");
    await page.getByRole("heading", { level: 1, name: "Admin Dashboard" }).waitFor();
    const byType = card(page, "Users by type");
    await byType.getByText("6", { exact: true }).waitFor();
    await expect(byType.getByRole("listitem").allInnerTexts()).resolves.toEqual([
      expect.stringMatching(/^Client access requested\s+0$/),
      expect.stringMatching(/^Prospects\s+3$/),
      expect.stringMatching(/^Clients\s+1$/),
      expect.stringMatching(/^Main admins\s+1$/),
      expect.stringMatching(/^User admins\s+1$/),
    ]);
    await expect(card(page, "Users by status").getByRole("listitem").allInnerTexts()).resolves.toEqual([
      expect.stringMatching(/^Active\s+5$/),
      expect.stringMatching(/^Inactive\s+1$/),
      expect.stringMatching(/^Archived\s+0$/),
    ]);
    await expect(card(page, "Unverified accounts").locator(".dashboard-number").textContent()).resolves.toBe(
      "1",
    );
    const pending = card(page, "Pending documents");
    await expect(pending.locator(".dashboard-number").textContent()).resolves.toBe("2");
    await expect(
      card(page, "Email failures").getByRole("link", { name: "Open Email Testing" }).count(),
    ).resolves.toBe(1);
    // the chart says what it shows: six accounts made today
    await page
      .getByText(/^6 new registrations in the last 30 days/)
      .first()
      .waitFor();
    // the recent activity lists the admin's own sign-in
    await card(page, "Recent activity").getByText("user.login_succeeded").first().waitFor();

    await pending.getByRole("link", { name: "Open Documentation" }).click();
    await page.waitForURL(/\/admin\/documentation$/);
  });

  it("a userAdmin sees no link to a page they cannot open", async () => {
    const page = await suite.signedIn(need(seeded.userAdmin), "/admin/dashboard");
    const email = card(page, "Email failures");
    await email.getByText("Handled in Email Testing, which your account cannot open.").waitFor();
    await expect(email.getByRole("link").count()).resolves.toBe(0);
    await expect(page.locator('a[href="/admin/email-testing"]').count()).resolves.toBe(0);
    await card(page, "Pending documents").getByRole("link", { name: "Open Documentation" }).waitFor();
  });

  it("a client who opens /admin reads a clear message, not an error", async () => {
    const page = await suite.signedIn(need(seeded.client), "/admin");
    const alert = page.getByRole("alert").filter({ hasText: "Permission Denied" });
    await alert.getByText("You don't have the necessary permissions to access this area.").waitFor();
    await expect(page.locator(".dashboard-card").count()).resolves.toBe(0);
    await alert.getByRole("button", { name: "Back to Dashboard" }).click();
    await page.waitForURL(/\/dashboard$/);
  });

  it("the audit view filters by target, action and area, and exports what it shows", async () => {
    const client = need(seeded.client);
    // the client's own sign-in is in the log
    const clientPage = await suite.signedIn(client, "/dashboard");
    await clientPage.close();

    const page = await suite.signedIn(need(seeded.admin), "/admin");
    const table = page.getByRole("table", { name: "Audit entries" });
    await table.locator("tbody tr").first().waitFor();
    await page.getByLabel("Target (user id)").fill(String(client.id));
    await page.getByLabel("Action contains").fill("login_succeeded");
    await table.locator("tbody tr").filter({ hasText: "Cleo Client" }).first().waitFor();
    await waitFor(
      async () => {
        const shown = await table.locator("tbody tr").allInnerTexts();
        return shown.length > 0 && shown.every((row) => row.includes("Cleo Client"));
      },
      "only the client's entries",
      10_000,
    );
    const rows = await table.locator("tbody tr").allInnerTexts();
    // the client signed in twice: here and at /admin before
    expect(rows).toHaveLength(2);
    expect(rows.every((row) => row.includes("user.login_succeeded"))).toBe(true);

    // a filter that matches nothing says so
    await page.getByLabel("Area").selectOption({ label: "Appointments" });
    await page.getByText("No entry matches these filters.").waitFor();
    await page.getByLabel("Area").selectOption({ label: "Users and sign-ins" });
    await table.locator("tbody tr").first().waitFor();

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^audit-\d{4}-\d{2}-\d{2}\.csv$/);
    const [header, ...records] = parseCsv(await readFile(await downloadedFile(download))) as string[][];
    expect(header?.join(",")).toBe(
      "time,action,actorId,actor,targetType,targetId,target,before,after,ip,requestId,details",
    );
    expect(records.length).toBe(rows.length);
    expect(records.every((r) => r[1] === "user.login_succeeded" && r.join(",").includes("Cleo Client"))).toBe(
      true,
    );
  });

  it("passes axe, works by keyboard alone, and fits a 375 px wide screen", async () => {
    const page = await suite.signedIn(need(seeded.admin), "/admin/dashboard", { bypassCSP: true });
    await page.getByRole("table", { name: "Audit entries" }).locator("tbody tr").first().waitFor();
    await card(page, "Pending documents").waitFor();
    expect(await axeFindings(page)).toEqual([]);

    // the chart's numbers open by keyboard
    await pressEnterOn(page.getByText("Show the numbers"));
    await page.getByRole("table", { name: "New registrations per day" }).waitFor();
    expect(await axeFindings(page)).toEqual([]);

    // Tab reaches the pending documents' link; Enter follows it
    const link = card(page, "Pending documents").getByRole("link", { name: "Open Documentation" });
    await page.getByRole("heading", { level: 1, name: "Admin Dashboard" }).click();
    expect(await tabTo(page, link, 40)).toBe(true);
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/admin\/documentation$/);

    const phone = await suite.signedIn(need(seeded.admin), "/admin", PHONE);
    await phone.getByRole("table", { name: "Audit entries" }).locator("tbody tr").first().waitFor();
    expect(await axeFindings(phone)).toEqual([]);
    const overflow = await sidewaysScroll(phone);
    expect(overflow).toBeLessThanOrEqual(0);
  }, 60_000);
});
