import { testDb } from "@services/shared/testing/db";
import { createUser, TEST_PASSWORD, uniqueSuffix } from "@services/shared/testing/factories";
import type { Page } from "playwright-core";
import {
  chooseFromUserMenu,
  type PortalPage,
  pastTheOverlay,
  registerThroughForm,
  signInThroughForm,
  submitLogin,
  submitRegistration,
  waitForToast,
} from "./support/portal";
import { browserSuite } from "./support/suite";

// The account in the browser: branding from the server, the top bar's user menu, changing the
// password, and the registration form's optional notes.

const suite = browserSuite();
let portal: PortalPage;

const ACME = {
  title: "Acme Receivables",
  logoUrl: "/logo.svg",
  supportPhone: "(555) 777-1234",
  consultationEmail: "talk@acme.test",
  businessHours: "8AM-4PM PST",
};

/** Answers GET /api/branding in this page with `branding`, as an administrator's settings would. */
async function brandAs(page: Page, branding: typeof ACME): Promise<void> {
  await page.route("**/api/branding", (route) => route.fulfill({ json: branding }));
}

describe("branding in the browser", () => {
  it("shows the branding's title in the top bar and the registration toast", async () => {
    portal = await suite.open();
    const { page } = portal;
    await brandAs(page, ACME);
    const suffix = uniqueSuffix();
    await page.goto(`${suite.server().url}/auth`);
    await page.locator('[data-tour="logo"]', { hasText: "Acme Receivables" }).waitFor();
    await submitRegistration(page, {
      "First name": "Brand",
      "Last name": "New",
      Username: `brand_${suffix}`,
      Email: `brand_${suffix}@example.test`,
      Password: "Brand-New-Portal-42",
    });

    await page.waitForURL(`${suite.server().url}/dashboard`);
    await waitForToast(page, "Registration successful Welcome to Acme Receivables Portal");
    expect(portal.problems.messages).toEqual([]);
  });

  it("shows the branding's consultation contact in the console and on /prospect-landing", async () => {
    const db = await testDb();
    const user = await createUser(db, { userType: "prospect", firstName: "Pia" });
    portal = await suite.open();
    const { page } = portal;
    await brandAs(page, ACME);
    await signInThroughForm(page, suite.server(), user.username);
    await pastTheOverlay(page);
    await page.getByRole("tab", { name: "Appointments" }).click();
    const contact = page.locator(".console-contact");
    await contact.getByRole("link", { name: "(555) 777-1234" }).waitFor();
    await contact.getByRole("link", { name: "talk@acme.test" }).waitFor();
    await contact.getByText("Business hours: 8AM-4PM PST").waitFor();

    await page.goto(`${suite.server().url}/prospect-landing`);
    await page.getByRole("button", { name: "Call (555) 777-1234" }).waitFor();
    await page.getByText("Business hours: 8AM-4PM PST.").waitFor();
    expect(portal.problems.messages).toEqual([]);
  });

  it("names the branding's support phone when a deactivated account tries to log in", async () => {
    portal = await suite.open([/status of 403 .*\/api\/login\)$/]);
    const { page } = portal;
    await brandAs(page, ACME);
    // The server's answer without its own wording: the page words it with the branding's phone.
    await page.route("**/api/login", (route) =>
      route.fulfill({ status: 403, json: { status: "deactivated", message: "Account unavailable" } }),
    );
    await page.goto(`${suite.server().url}/auth`);
    await page.locator('[data-tour="logo"]', { hasText: "Acme Receivables" }).waitFor();
    await submitLogin(page, "someone", "Whatever-1!");
    await waitForToast(
      page,
      "Login failed This account has been deactivated. Please contact support at (555) 777-1234 for assistance.",
    );
    expect(portal.problems.messages).toEqual([]);
  });
});

describe("the user menu and the account screens", () => {
  it("opens the security questions and the password change from 'Welcome, {first name}'", async () => {
    const db = await testDb();
    const user = await createUser(db, { userType: "client", firstName: "Menu" });
    // A user without security questions: GET /api/security-questions/{id} answers 404 (none yet).
    portal = await suite.open([/status of 404 .*\/api\/security-questions\/\d+\)$/]);
    const { page } = portal;
    await signInThroughForm(page, suite.server(), user.username);
    await pastTheOverlay(page);

    await chooseFromUserMenu(page, "Security questions");
    await page.getByRole("form", { name: "Security questions" }).waitFor();
    expect(new URL(page.url()).search).toBe("?mode=security-questions");
    await chooseFromUserMenu(page, "Change password");
    await page.getByRole("form", { name: "Change password" }).waitFor();
    expect(new URL(page.url()).search).toBe("?mode=change-password");
    expect(portal.problems.messages).toEqual([]);
  });

  it("sends a signed-out visitor from the password change to the login form", async () => {
    portal = await suite.open();
    const { page } = portal;
    await page.goto(`${suite.server().url}/auth?mode=change-password`);
    await page.getByRole("form", { name: "Login" }).waitFor();
    await expect(page.getByRole("form", { name: "Change password" }).count()).resolves.toBe(0);
    expect(portal.problems.messages).toEqual([]);
  });

  it("refuses a wrong current password, then changes it; the new one signs in after logout", async () => {
    const db = await testDb();
    const user = await createUser(db, { userType: "client", firstName: "Pass" });
    portal = await suite.open([/status of 400 .*\/api\/user\/password\)$/]);
    const { page } = portal;
    await signInThroughForm(page, suite.server(), user.username);
    await pastTheOverlay(page);
    await chooseFromUserMenu(page, "Change password");
    const form = page.getByRole("form", { name: "Change password" });

    await form.getByLabel("Current password").fill("Not-My-Password-1!");
    await form.getByLabel("New password").fill("Brand-New-Secret-77!");
    await form.getByRole("button", { name: "Change password" }).click();
    await waitForToast(page, "Password change failed Current password is incorrect");
    expect(new URL(page.url()).search).toBe("?mode=change-password");

    await form.getByLabel("Current password").fill(TEST_PASSWORD);
    await form.getByRole("button", { name: "Change password" }).click();
    await waitForToast(page, "Password updated Your password has been changed.");
    await page.waitForURL(`${suite.server().url}/dashboard`);
    await pastTheOverlay(page);

    await chooseFromUserMenu(page, "Logout");
    await page.waitForURL(`${suite.server().url}/auth`);
    await signInThroughForm(page, suite.server(), user.username, "Brand-New-Secret-77!");
    await page.getByText("Welcome, Pass", { exact: true }).waitFor();
    expect(portal.problems.messages).toEqual([]);
  });
});

describe("registration notes", () => {
  it("sends the optional notes with the registration", async () => {
    portal = await suite.open();
    const { page } = portal;
    const { username } = await registerThroughForm(page, suite.server(), {
      firstName: "Nora",
      lastName: "Notes",
      handle: "nora",
      password: "Nora-Writes-Notes-8",
      optional: { Notes: "We invoice about 300 clients a month." },
    });

    const db = await testDb();
    const saved = await db.prisma.user.findFirstOrThrow({ where: { username } });
    expect(saved.registrationNotes).toBe("We invoice about 300 clients a month.");
    expect(portal.problems.messages).toEqual([]);
  });
});
