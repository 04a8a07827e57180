import { updateEmailSettings } from "@services/email";
import { startTestSmtp, type TestSmtp } from "@services/email/testing";
import { createAdmin } from "@services/shared/testing/factories";
import type { Page } from "playwright-core";
import { axeFindings } from "./support/axe";
import { PHONE, pressEnterOn, sidewaysScroll, waitForToast } from "./support/portal";
import { browserSuite } from "./support/suite";

// Email settings in Chromium (issue 12): an administrator points the portal at a real SMTP server
// (smtp-server, requiring a user name and password), saves, and sees the change; "Test connection"
// answers in the portal's words, a success and a 535 for a wrong password (never the server's text,
// issue 20); the stored password is never shown; the page works by keyboard, fits 375 px and has no
// WCAG 2.2 A/AA violation. On a database of the file's own: email_settings is one row every sender
// reads. The server is on loopback: CONNECTION_TEST_ALLOW_PRIVATE lets "Test connection" reach it.

const suite = browserSuite(
  { SMTP_URL: "", MAIL_FROM: "", TEAM_EMAIL: "", CONNECTION_TEST_ALLOW_PRIVATE: "1" },
  { isolatedDatabase: true },
);
const PASSWORD = "Browser-Smtp-Pass-5e8d2c";
let smtp: TestSmtp;

beforeAll(async () => {
  smtp = await startTestSmtp({ auth: { user: "mailer", pass: PASSWORD } });
});
afterAll(async () => {
  await smtp.stop();
});

const port = () => new URL(smtp.url).port;
const form = (page: Page) => page.getByRole("form", { name: "Email settings" });
const testStatus = (page: Page) => page.locator(".email-settings-test");

async function isFocused(page: Page, label: string): Promise<boolean> {
  return form(page)
    .getByLabel(label, { exact: true })
    .evaluate((el) => el === el.ownerDocument.activeElement);
}

describe("Email settings in the browser", () => {
  it("saves a server, shows it, tests the connection (a success, a 535 in the portal's words, the stored password kept to the saved server), never shows the password", async () => {
    const admin = await createAdmin(suite.db());
    const page = await suite.signedIn(admin, "/admin/email-settings");
    await page.getByRole("heading", { level: 1, name: "Email Settings" }).waitFor();
    await page
      .getByText("No SMTP server is set: messages are kept in the portal, marked captured.")
      .waitFor();

    const f = form(page);
    await f.getByLabel("Host", { exact: true }).fill("127.0.0.1");
    // Blueprint draws its own radio over the input: choose it as a keyboard user does
    await f.getByRole("radio", { name: "None" }).focus();
    await page.keyboard.press("Space");
    expect(await f.getByRole("radio", { name: "None" }).isChecked()).toBe(true);
    await f.getByLabel("Port", { exact: true }).fill(port());
    await f.getByLabel("User name", { exact: true }).fill("mailer");
    await f.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await f.getByLabel("From name", { exact: true }).fill("Browser Firm");
    await f.getByLabel("From address", { exact: true }).fill("mail@firm.test");
    await f.getByLabel("Reply-to address", { exact: true }).fill("answers@firm.test");

    // a bad value is refused in place with the shared schema's message, and nothing is saved
    await f.getByLabel("Team address", { exact: true }).fill("team@");
    await f.getByRole("button", { name: "Save settings" }).click();
    await f.getByText("Please enter a valid team address").waitFor();
    expect(
      (await suite.db().prisma.emailSettings.findUnique({ where: { id: 1 } }))?.smtpHost ?? null,
    ).toBeNull();
    await f.getByLabel("Team address", { exact: true }).fill("team@firm.test");

    await f.getByRole("button", { name: "Save settings" }).click();
    await waitForToast(page, /Email settings saved/);
    await page
      .locator(".email-settings-summary")
      .getByText(`Messages are sent through 127.0.0.1:${port()}.`)
      .waitFor();
    await f.getByText(/Last changed .* by /).waitFor();

    // after a reload: the saved values, the password field empty and saying one is stored
    await page.reload();
    await form(page).getByLabel("From name", { exact: true }).waitFor();
    expect(await form(page).getByLabel("Host", { exact: true }).inputValue()).toBe("127.0.0.1");
    expect(await form(page).getByLabel("Reply-to address", { exact: true }).inputValue()).toBe(
      "answers@firm.test",
    );
    const password = form(page).getByLabel("Password", { exact: true });
    expect(await password.inputValue()).toBe("");
    expect(await password.getAttribute("type")).toBe("password");
    expect(await password.getAttribute("placeholder")).toBe("Stored — leave empty to keep");
    await form(page).getByText("A password is stored; it is never shown.", { exact: false }).waitFor();

    // the stored password signs in (the saved server)
    await form(page).getByRole("button", { name: "Test connection" }).click();
    await testStatus(page).getByText("Connection works").waitFor();
    await testStatus(page)
      .getByText(`Connected to 127.0.0.1:${port()} and signed in`, { exact: false })
      .waitFor();

    // a wrong password: the server's refusal by its code, in the portal's words
    await password.fill("Not-The-Password-1");
    await form(page).getByRole("button", { name: "Test connection" }).click();
    await testStatus(page).getByText("Connection failed").waitFor();
    await testStatus(page)
      .getByText(`The server at 127.0.0.1:${port()} refused the user name or password (535)`, {
        exact: false,
      })
      .waitFor();
    expect(await testStatus(page).textContent()).not.toContain("Authentication credentials invalid");

    // another port with the password field empty: the stored password is not offered to it
    await password.fill("");
    await form(page).getByLabel("Port", { exact: true }).fill("2525");
    await form(page).getByRole("button", { name: "Test connection" }).click();
    await testStatus(page)
      .getByText(
        "Enter the password to test this server: the stored password is used only with the saved host",
        {
          exact: false,
        },
      )
      .waitFor();

    expect(await page.content()).not.toContain(PASSWORD);
  }, 90_000);

  it("works by keyboard alone, has no WCAG 2.2 A/AA violation and fits 375 px", async () => {
    const admin = await createAdmin(suite.db());
    await updateEmailSettings({
      db: suite.db(),
      actor: { id: admin.id, name: "Set Up" },
      input: {
        smtpHost: "127.0.0.1",
        smtpPort: Number(port()),
        smtpSecurity: "none",
        smtpUser: "mailer",
        smtpPassword: PASSWORD,
        fromName: "Set Up Firm",
        fromAddress: "mail@firm.test",
        teamAddress: "team@firm.test",
        enabled: true,
      },
    });
    const page = await suite.signedIn(admin, "/admin/email-settings", { bypassCSP: true });
    await form(page).getByLabel("From name", { exact: true }).waitFor();
    expect(await axeFindings(page)).toEqual([]);

    // Tab from the host field to the next fields; type a new sender name; Enter saves
    await form(page).getByLabel("Host", { exact: true }).focus();
    let reached = false;
    for (let i = 0; i < 20 && !reached; i++) {
      await page.keyboard.press("Tab");
      reached = await isFocused(page, "From name");
    }
    expect(reached).toBe(true);
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type("Keyboard Firm");
    await page.keyboard.press("Enter");
    await waitForToast(page, /Email settings saved/);
    await expect(
      suite.db().prisma.emailSettings.findUniqueOrThrow({ where: { id: 1 } }),
    ).resolves.toMatchObject({ fromName: "Keyboard Firm" });

    // "Test connection" by keyboard; its answer is announced in the status region
    await pressEnterOn(form(page).getByRole("button", { name: "Test connection" }));
    await testStatus(page).getByText("Connection works").waitFor();
    expect(await axeFindings(page)).toEqual([]);

    const phone = await suite.signedIn(admin, "/admin/email-settings", PHONE);
    await form(phone).getByLabel("From name", { exact: true }).waitFor();
    expect(await axeFindings(phone)).toEqual([]);
    const overflow = await sidewaysScroll(phone);
    expect(overflow).toBeLessThanOrEqual(0);
  }, 90_000);
});
