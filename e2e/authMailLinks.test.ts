import { uniqueSuffix } from "@services/shared/testing/factories";
import type { Browser } from "playwright-core";
import { launchBrowser } from "./support/browser";
import { emailedLink, type MailTestServer, startMailTestServer } from "./support/mailServer";
import { openPortal, type PortalPage, signInThroughForm, waitForToast } from "./support/portal";

// Emailed links followed through the UI: the gateway runs the outbox relay and the email service,
// messages are captured in email_messages (no SMTP), and the test opens the link a person would.

let server: MailTestServer;
let browser: Browser;
let portal: PortalPage;

beforeAll(async () => {
  server = await startMailTestServer(`links${uniqueSuffix()}`);
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

afterEach(async () => {
  await portal?.close();
});

describe("emailed links in the browser", () => {
  it("registers on the page, then the emailed verification link verifies the address", async () => {
    portal = await openPortal(browser);
    const { page } = portal;
    const suffix = uniqueSuffix();
    const email = `vera_${suffix}@example.test`;
    await page.goto(`${server.url}/auth`);
    await page.getByRole("tab", { name: "Register" }).click();
    const form = page.getByRole("form", { name: "Register" });
    await form.getByLabel("First name").fill("Vera");
    await form.getByLabel("Last name").fill("Fied");
    await form.getByLabel("Username").fill(`vera_${suffix}`);
    await form.getByLabel("Email").fill(email);
    await form.getByLabel("Password").fill("Verify-Me-Soon-31");
    await form.getByRole("button", { name: "Register" }).click();
    await page.waitForURL(`${server.url}/dashboard`);

    const link = await emailedLink(server.db, email, "verify-email");
    await page.goto(`${server.url}${link}`);
    await waitForToast(page, "Email verified Your email has been successfully verified.");
    const saved = await server.db.prisma.user.findFirstOrThrow({ where: { email } });
    expect(saved.emailVerified).toBe(true);
    expect(portal.problems.messages).toEqual([]);
  });

  it("asks for a reset on the page; the emailed link sets a new password that signs in", async () => {
    const suffix = uniqueSuffix();
    const email = `rita_${suffix}@example.test`;
    const register = await fetch(`${server.url}/api/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: server.url },
      body: JSON.stringify({
        username: `rita_${suffix}`,
        email,
        password: "Forgot-It-Soon-52",
        firstName: "Rita",
        lastName: "Reset",
        userType: "prospect",
      }),
    });
    expect(register.status).toBe(201);
    // Verified, so that signing in is not held back by the verification rule.
    await server.db.prisma.user.update({ where: { email }, data: { emailVerified: true } });

    portal = await openPortal(browser);
    const { page } = portal;
    await page.goto(`${server.url}/auth`);
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    const request = page.getByRole("form", { name: "Reset password" });
    await request.getByLabel("Email").fill(email);
    await request.getByRole("button", { name: "Send reset link" }).click();
    await waitForToast(
      page,
      "Password reset requested If an account exists with this email, you will receive reset instructions.",
    );

    const link = await emailedLink(server.db, email, "reset-password");
    await page.goto(`${server.url}${link}`);
    const reset = page.getByRole("form", { name: "Set a new password" });
    await reset.getByLabel("New password", { exact: true }).fill("Remembered-Now-64");
    await reset.getByLabel("Confirm new password").fill("Remembered-Now-64");
    await reset.getByRole("button", { name: "Set new password" }).click();
    await waitForToast(page, "Password updated You can now log in with your new password.");
    await page.waitForURL(`${server.url}/auth`);

    await signInThroughForm(page, server, email, "Remembered-Now-64");
    await page.getByText("Welcome, Rita", { exact: true }).waitFor();
    expect(portal.problems.messages).toEqual([]);
  });
});
