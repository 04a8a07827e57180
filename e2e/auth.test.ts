import { unseal } from "@services/shared/sealed";
import { testDb } from "@services/shared/testing/db";
import { createDocument, createUser, TEST_PASSWORD } from "@services/shared/testing/factories";
import {
  chooseFromUserMenu,
  navigateInApp,
  type PortalPage,
  pastTheOverlay,
  registerThroughForm,
  signInThroughForm,
  submitLogin,
  submitRegistration,
  waitForToast,
} from "./support/portal";
import { browserSuite } from "./support/suite";

// Identity in the browser: /auth's forms, the toasts of spec §8 and the top bar of spec §2.

const suite = browserSuite();
let portal: PortalPage;

const mainNav = (p: PortalPage) => p.page.getByRole("navigation", { name: "Main" });

describe("/auth in the browser", () => {
  it("sends a signed-out visitor from the dashboard to /auth", async () => {
    portal = await suite.open();
    await portal.page.goto(`${suite.server().url}/dashboard`);
    await portal.page.waitForURL(`${suite.server().url}/auth`);
    await portal.page.getByRole("tab", { name: "Login" }).waitFor();
    await expect(mainNav(portal).getByRole("link").allInnerTexts()).resolves.toEqual([
      "Pro App Features",
      "Login / Register",
    ]);
    expect(portal.problems.messages).toEqual([]);
  });

  it("shows the spec's registration messages before anything is sent", async () => {
    portal = await suite.open();
    const { page } = portal;
    let registrations = 0;
    page.on("request", (req) => {
      if (req.url().endsWith("/api/register")) registrations += 1;
    });
    await page.goto(`${suite.server().url}/auth`);
    const form = await submitRegistration(page, {
      Username: "ab",
      Email: "not-an-email",
      Password: "short",
      Phone: "12-ab",
    });

    for (const message of [
      "Username must be at least 3 characters",
      "Please enter a valid email address",
      "Password must be at least 8 characters",
      "First name is required",
      "Last name is required",
      "Please enter a valid phone number",
    ]) {
      await form.getByText(message, { exact: true }).waitFor();
    }
    expect(registrations).toBe(0);
    expect(portal.problems.messages).toEqual([]);
  });

  it("registers a prospect, signs them in at once, welcomes them by first name and asks for the verification link first", async () => {
    portal = await suite.open();
    const { page } = portal;
    const { username, email } = await registerThroughForm(page, suite.server(), {
      firstName: "Ada",
      lastName: "Lovelace",
      handle: "ada",
      password: "Analytical-Engine-1843",
      optional: { Phone: "+1 (555) 010-0199" },
    });

    await waitForToast(page, "Registration successful Welcome to ESRT Portal");
    await page.getByText("Welcome, Ada", { exact: true }).waitFor();
    await expect(mainNav(portal).getByRole("link").allInnerTexts()).resolves.toEqual([
      "Dashboard",
      "Pro App Features",
    ]);

    const db = await testDb();
    const saved = await db.prisma.user.findFirstOrThrow({ where: { username } });
    expect(saved).toMatchObject({ firstName: "Ada", userType: "prospect", emailVerified: false });

    // "require a verified email" is on: until the emailed link is followed, the session can only
    // verify (issue 20)
    await page.getByRole("heading", { level: 1, name: "Verify your email" }).waitFor();
    await page.getByText(email, { exact: true }).waitFor();
    const events = await db.prisma.outboxEvent.findMany({ where: { type: "user.registered" } });
    const payload = events
      .map((e) => (e.envelope as { payload: { userId: number; sealedToken: string } }).payload)
      .find((p) => p.userId === saved.id);
    const token = unseal(payload?.sealedToken ?? "");
    await page.goto(`${suite.server().url}/auth?mode=verify-email&token=${token}`);
    await waitForToast(page, "Email verified Your email has been successfully verified.");
    await page.getByRole("link", { name: "Go to your dashboard" }).click();
    await page.getByRole("heading", { level: 1, name: "Your console" }).waitFor();
    expect(portal.problems.messages).toEqual([]);
  });

  it("refuses a wrong password with the 'Login failed' toast and stays on /auth", async () => {
    const db = await testDb();
    const user = await createUser(db, { userType: "client" });
    portal = await suite.open([/status of 401 .*\/api\/login\)$/]);
    const { page } = portal;
    await page.goto(`${suite.server().url}/auth`);
    await submitLogin(page, user.username, "Wrong-Password-9!");

    await waitForToast(page, "Login failed Invalid login credentials");
    expect(new URL(page.url()).pathname).toBe("/auth");
    await expect(page.getByText(/^Welcome, /).count()).resolves.toBe(0);
    expect(portal.problems.messages).toEqual([]);
  });

  it("logs out and in again, the top bar following each time", async () => {
    const db = await testDb();
    const user = await createUser(db, { userType: "client", firstName: "Grace" });
    portal = await suite.open();
    const { page } = portal;

    await signInThroughForm(page, suite.server(), user.email, TEST_PASSWORD);
    await page.getByText("Welcome, Grace", { exact: true }).waitFor();

    // Past the dashboard's welcome overlay, as a person would, then log out.
    await pastTheOverlay(page);
    await chooseFromUserMenu(page, "Logout");
    await page.waitForURL(`${suite.server().url}/auth`);
    await mainNav(portal).getByRole("link", { name: "Login / Register" }).waitFor();
    await expect(page.getByText("Welcome, Grace", { exact: true }).count()).resolves.toBe(0);

    // The old session is gone: the dashboard sends the visitor back to /auth.
    await page.goto(`${suite.server().url}/dashboard`);
    await page.waitForURL(`${suite.server().url}/auth`);

    await signInThroughForm(page, suite.server(), user.username.toUpperCase(), TEST_PASSWORD);
    await page.getByText("Welcome, Grace", { exact: true }).waitFor();

    // The top bar's own Logout button (spec §2) signs out too.
    await pastTheOverlay(page);
    await page.locator(".portal-topbar").getByRole("button", { name: "Logout", exact: true }).click();
    await page.waitForURL(`${suite.server().url}/auth`);
    await expect(page.getByText("Welcome, Grace", { exact: true }).count()).resolves.toBe(0);
    expect(portal.problems.messages).toEqual([]);
  });

  it("shows the next user in the same tab nothing of the user who logged out (the cache is emptied)", async () => {
    const db = await testDb();
    const grace = await createUser(db, { userType: "client", firstName: "Grace" });
    const henry = await createUser(db, { userType: "client", firstName: "Henry" });
    const graces = await createDocument(db, { userId: grace.id, title: "Grace's private statement" });
    portal = await suite.open();
    const { page } = portal;

    await signInThroughForm(page, suite.server(), grace.email, TEST_PASSWORD);
    await navigateInApp(page, "/documents");
    await page.getByText(graces.title).first().waitFor();
    await navigateInApp(page, "/dashboard");
    await pastTheOverlay(page);
    await chooseFromUserMenu(page, "Logout");
    await page.waitForURL(`${suite.server().url}/auth`);

    // from here on, the page records whether Grace's document is ever drawn, even for a moment
    await page.evaluate(`(() => {
      const title = ${JSON.stringify(graces.title)};
      window.graceSeen = "";
      new MutationObserver(() => {
        if (!window.graceSeen && document.body.textContent.includes(title)) window.graceSeen = location.pathname;
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    })()`);
    await submitLogin(page, henry.email, TEST_PASSWORD);
    await page.getByText("Welcome, Henry", { exact: true }).waitFor();
    await navigateInApp(page, "/documents");
    await page.getByRole("heading", { level: 1, name: "Documents" }).waitFor();
    await page
      .getByRole("table", { name: "Documents" })
      .or(page.getByText(/no documents/i))
      .first()
      .waitFor();
    expect(await page.evaluate("window.graceSeen")).toBe("");
    expect(portal.problems.messages).toEqual([]);
  });
});
