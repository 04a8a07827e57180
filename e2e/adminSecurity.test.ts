import { createAdmin, uniqueSuffix } from "@services/shared/testing/factories";
import type { Page } from "playwright-core";
import { axeFindings } from "./support/axe";
import { PHONE, pressEnterOn, pressEscapeInOverlay, sidewaysScroll, waitForToast } from "./support/portal";
import { browserSuite } from "./support/suite";

// Security Settings in Chromium (issue 12), on a database of the file's own (the settings it saves
// apply to every sign-in): an admin reveals unknown accounts and the next sign-in of an unknown
// login reads the spec's 404 message; a longer password minimum shows on the registration form; an
// out-of-bounds number shows its message; a userAdmin is refused; keyboard and 375 px.

const suite = browserSuite({}, { isolatedDatabase: true });

const form = (page: Page) => page.getByRole("form", { name: "Security settings" });

async function saveSettings(page: Page): Promise<void> {
  await form(page).getByRole("button", { name: "Save security settings" }).click();
  await waitForToast(page, "Security settings saved The next sign-in follows them.");
}

describe("security settings", () => {
  it("an admin reveals unknown accounts and raises the password minimum; the next visitor sees both", async () => {
    const admin = await createAdmin(suite.db(), { firstName: "Sam" });
    const page = await suite.signedIn(admin, "/admin/security");
    await page.getByRole("heading", { level: 1, name: "Security Settings" }).waitFor();
    await page.getByRole("cell", { name: "30 minutes" }).waitFor();

    await form(page).getByText("Reveal unknown accounts").click();
    const min = form(page).getByLabel("Minimum password length");
    await min.fill("7");
    await form(page).getByText("Minimum password length must be a whole number from 8 to 64").waitFor();
    await min.fill("14");
    await saveSettings(page);
    await page.getByText(/^Last changed .+ by Sam /).waitFor();

    const visitor = await suite.open([/\/api\/login/]);
    await visitor.page.goto(`${suite.server().url}/auth`);
    const login = visitor.page.getByRole("form", { name: "Login" });
    await login.getByLabel("Username or email").fill(`nobody_${uniqueSuffix()}`);
    await login.getByLabel("Password").fill("Whatever-pass-1!");
    await login.getByRole("button", { name: "Login" }).click();
    await waitForToast(
      visitor.page,
      "Login failed Account not found. Please check your login credentials or register.",
    );

    await visitor.page.getByRole("tab", { name: "Register" }).click();
    const register = visitor.page.getByRole("form", { name: "Register" });
    await register.getByText("At least 14 characters, with a number and a special character").waitFor();
    await register.getByLabel("Password").fill("Short-pass-1!");
    await register.getByRole("button", { name: "Register" }).click();
    await register.getByText("Password must be at least 14 characters", { exact: true }).waitFor();
  }, 90_000);

  it("a userAdmin opening /admin/security sees 'Permission Denied'", async () => {
    const userAdmin = await createAdmin(suite.db(), { userType: "userAdmin" });
    const page = await suite.signedIn(userAdmin, "/admin/security");
    const alert = page.getByRole("alert").filter({ hasText: "Permission Denied" });
    await alert.getByText("You don't have the necessary permissions to access this area.").waitFor();
    await expect(form(page).count()).resolves.toBe(0);
  });

  it("works by keyboard, has no WCAG 2.2 A/AA violation and fits 375 px", async () => {
    const admin = await createAdmin(suite.db());
    const page = await suite.signedIn(admin, "/admin/security", PHONE);
    const button = page.getByRole("button", { name: "Sign out everyone else" });
    await button.waitFor();
    expect(await axeFindings(page)).toEqual([]);
    const overflow = await sidewaysScroll(page);
    expect(overflow).toBeLessThanOrEqual(0);

    // the confirmation opens and cancels by keyboard
    await pressEnterOn(button);
    const dialog = page.getByRole("alertdialog");
    await dialog.getByText("Everyone else will have to sign in again. Continue?").waitFor();
    await pressEscapeInOverlay(page);
    await dialog.waitFor({ state: "detached" });
    expect(
      await suite.db().prisma.auditLog.count({ where: { action: "security.sessions_revoked_all" } }),
    ).toBe(0);
  }, 60_000);
});
