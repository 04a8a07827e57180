import { createAdmin, uniqueSuffix } from "@services/shared/testing/factories";
import type { Page } from "playwright-core";
import { axeFindings } from "./support/axe";
import { PHONE, sidewaysScroll, signInThroughApi, waitForToast } from "./support/portal";
import { browserSuite } from "./support/suite";

// Branding Settings in Chromium (issue 12), on a database of the file's own (the title it sets would
// change every other browser test's welcome): an admin changes the title and sees the top bar change
// at once, a newly registered user is welcomed with the new title, the form shows the spec's
// messages, a logo that cannot load falls back to the portal's mark, a userAdmin is refused, and
// the page works by keyboard alone and at 375 px wide.

const suite = browserSuite({}, { isolatedDatabase: true });

const brand = (page: Page) => page.locator('.portal-topbar [data-tour="logo"]');
const form = (page: Page) => page.getByRole("form", { name: "Branding settings" });

describe("branding settings", () => {
  it("an admin changes the title: the top bar changes at once and a new user is welcomed with it", async () => {
    const admin = await createAdmin(suite.db(), { firstName: "Bea" });
    const page = await suite.signedIn(admin, "/admin/branding");
    await page.getByRole("heading", { level: 1, name: "Branding Settings" }).waitFor();
    await expect(brand(page).textContent()).resolves.toBe("ESRT");
    await page.getByText(/^Last changed .+/).waitFor();

    const title = form(page).getByLabel("Product title");
    await title.fill("Northwind Receivables");
    // the preview follows the typing; the top bar keeps the saved title until the save
    const preview = page.getByTestId("branding-preview");
    await preview.getByText("Welcome to Northwind Receivables Portal").waitFor();
    await expect(brand(page).textContent()).resolves.toBe("ESRT");

    await form(page).getByRole("button", { name: "Save branding" }).click();
    await waitForToast(page, "Branding saved Every page shows it within a minute.");
    await brand(page).getByText("Northwind Receivables", { exact: true }).waitFor();
    await page.getByText(/^Last changed .+ by Bea /).waitFor();
    await expect(page.title()).resolves.toBe("Branding Settings – Northwind Receivables Portal");

    // somebody new registers in another browser: the toast names the new title
    const visitor = await suite.open();
    const suffix = uniqueSuffix();
    await visitor.page.goto(`${suite.server().url}/auth`);
    await brand(visitor.page).getByText("Northwind Receivables", { exact: true }).waitFor();
    await visitor.page.getByRole("tab", { name: "Register" }).click();
    const register = visitor.page.getByRole("form", { name: "Register" });
    await register.getByLabel("First name").fill("Nell");
    await register.getByLabel("Last name").fill("North");
    await register.getByLabel("Username").fill(`nell_${suffix}`);
    await register.getByLabel("Email").fill(`nell_${suffix}@example.test`);
    await register.getByLabel("Password").fill("Northwind-Ledger-42");
    await register.getByRole("button", { name: "Register" }).click();
    await visitor.page.waitForURL(`${suite.server().url}/dashboard`);
    await waitForToast(visitor.page, "Registration successful Welcome to Northwind Receivables Portal");
  }, 90_000);

  it("shows the spec's messages and saves nothing while the form is wrong", async () => {
    const admin = await createAdmin(suite.db());
    const page = await suite.signedIn(admin, "/admin/branding");
    const title = form(page).getByLabel("Product title");
    await title.waitFor();
    const saved = await title.inputValue();

    await title.fill("");
    await form(page).getByText("Title is required", { exact: true }).waitFor();
    await title.fill("x".repeat(101));
    await form(page).getByText("Title must be less than 100 characters", { exact: true }).waitFor();
    await title.fill(saved);

    const logo = form(page).getByLabel("Logo URL");
    const requested: string[] = [];
    page.on("request", (request) => requested.push(request.url()));
    await logo.fill("not a url");
    await form(page).getByText("Please enter a valid URL", { exact: true }).waitFor();
    // the preview keeps the stored logo and never asks for an address that could not be saved
    const previewLogo = page.locator('[data-testid="branding-preview"] img');
    await expect(previewLogo.getAttribute("src")).resolves.toBe(
      (await suite.db().prisma.brandingConfig.findFirstOrThrow()).logoUrl,
    );
    expect(requested.filter((url) => url.includes("not%20a%20url"))).toEqual([]);
    await logo.fill("");
    await form(page).getByText("Logo URL is required", { exact: true }).waitFor();
    await expect(logo.getAttribute("aria-invalid")).resolves.toBe("true");

    await form(page).getByRole("button", { name: "Save branding" }).click();
    await expect(logo.evaluate((el) => el === el.ownerDocument.activeElement)).resolves.toBe(true);
    const stored = await suite.db().prisma.brandingConfig.findFirstOrThrow();
    expect(stored.logoUrl).not.toBe("");
    expect(
      await suite.db().prisma.auditLog.count({ where: { action: "branding.updated", actorId: admin.id } }),
    ).toBe(0);
  });

  it("a logo that cannot load falls back to the portal's mark", async () => {
    const admin = await createAdmin(suite.db());
    const portal = await suite.open([/no-such-logo\.png/]);
    await signInThroughApi(portal.page, suite.server(), admin.username);
    const { page } = portal;
    await page.goto(`${suite.server().url}/admin/branding`);
    const logo = form(page).getByLabel("Logo URL");
    await logo.fill("/no-such-logo.png");
    // the preview falls back while editing
    await page.locator('[data-testid="branding-preview"] img[data-fallback="true"]').waitFor();
    await form(page).getByRole("button", { name: "Save branding" }).click();
    await waitForToast(page, /^Branding saved/);
    const shown = brand(page).locator("img");
    await brand(page).locator('img[data-fallback="true"]').waitFor();
    await expect(shown.getAttribute("src")).resolves.toBe("/favicon.svg");
    // back to a logo that loads
    await logo.fill("/logo.svg");
    await form(page).getByRole("button", { name: "Save branding" }).click();
    await brand(page).locator('img[src="/logo.svg"]:not([data-fallback])').waitFor();
  });

  it("a userAdmin opening /admin/branding sees 'Permission Denied'", async () => {
    const userAdmin = await createAdmin(suite.db(), { userType: "userAdmin" });
    const page = await suite.signedIn(userAdmin, "/admin/branding");
    const alert = page.getByRole("alert").filter({ hasText: "Permission Denied" });
    await alert.getByText("You don't have the necessary permissions to access this area.").waitFor();
    await expect(page.getByRole("form", { name: "Branding settings" }).count()).resolves.toBe(0);
  });

  it("works by keyboard alone, has no WCAG 2.2 A/AA violation and fits 375 px", async () => {
    const admin = await createAdmin(suite.db());
    const page = await suite.signedIn(admin, "/admin/branding", PHONE);
    const title = form(page).getByLabel("Product title");
    await title.waitFor();
    expect(await axeFindings(page)).toEqual([]);
    const overflow = await sidewaysScroll(page);
    expect(overflow).toBeLessThanOrEqual(0);

    // from the heading, Tab reaches the title; type, then Enter saves
    await page.getByRole("heading", { level: 1, name: "Branding Settings" }).click();
    await page.keyboard.press("Tab");
    await expect(title.evaluate((el) => el === el.ownerDocument.activeElement)).resolves.toBe(true);
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type("Keyboard Portal Co");
    await page.keyboard.press("Enter");
    await waitForToast(page, /^Branding saved/);
    // the compact top bar shows it too
    await brand(page).getByText("Keyboard Portal Co", { exact: true }).waitFor();
  }, 60_000);
});
