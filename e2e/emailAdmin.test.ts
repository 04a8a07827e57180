import { type EmailSender, smtpTransport, startEmailSender } from "@services/email";
import { startTestSmtp, type TestSmtp } from "@services/email/testing";
import { createAdmin } from "@services/shared/testing/factories";
import { axeFindings } from "./support/axe";
import { previewText, saveVerificationTemplate, waitForText } from "./support/emailPreview";
import { PHONE, pressEnterOn, pressEscapeInOverlay, sidewaysScroll, waitForToast } from "./support/portal";
import { browserSuite } from "./support/suite";

// Email templates and the delivery log in Chromium (issue 12): an admin edits the verification
// template, previews it, sends a test that the portal's sender delivers to a real SMTP server, and
// finds it in the delivery log as sent. The sender runs beside the gateway on the file's own
// database (it claims every queued message it finds), with SMTP pointed at the test server.

const suite = browserSuite({}, { isolatedDatabase: true });

let smtp: TestSmtp;
let sender: EmailSender;

beforeAll(async () => {
  smtp = await startTestSmtp();
  sender = await startEmailSender({
    db: suite.db(),
    transport: smtpTransport({ url: smtp.url, timeoutMs: 2000 }),
    pollMs: 200,
  });
});

afterAll(async () => {
  await sender?.stop();
  await smtp?.stop();
});

async function waitForMail(address: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (smtp.to(address).length === 0) {
    if (Date.now() > deadline) throw new Error(`no mail to ${address}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return smtp.to(address);
}

describe("email templates and the delivery log in the browser", () => {
  it("an admin edits the verification template, previews it, sends a test and finds it sent in the log", async () => {
    const admin = await createAdmin(suite.db());
    const page = await suite.signedIn(admin, "/admin/email-templates");
    await page.getByRole("heading", { level: 1, name: "Email Templates" }).waitFor();
    await page.getByRole("button", { name: "Email verification" }).click();
    const form = page.getByRole("form", { name: "Edit the Email verification template" });
    const subject = form.getByLabel("Subject");
    await subject.fill("Welcome aboard, {{firstName}}: confirm {{productName}}");

    // an unknown variable is shown with its line before saving, and refused at save
    const html = form.getByLabel("HTML body");
    await html.fill('<p>Hello {{firstName}},</p>\n<p><a href="{{link}}">Confirm</a> {{secret}}</p>');
    await page.getByText('HTML body, line 2: Unknown variable "secret"').first().waitFor();
    await form.getByRole("button", { name: "Save template" }).click();
    await page
      .getByRole("alert")
      .filter({ hasText: "The template was not saved" })
      .filter({ hasText: 'HTML body, line 2: Unknown variable "secret"' })
      .waitFor();

    await html.fill(
      '<p>Hello {{firstName}} {{lastName}},</p>\n<p><a href="{{link}}">Confirm</a> within {{expiresInHours}} hours.</p>',
    );
    // the live preview: sample values in a sandboxed frame without scripts
    await page.getByText("Welcome aboard, Maria: confirm ESRT").waitFor();
    await waitForText(() => previewText(page), "Hello Maria Lopez,");
    // (allow-same-origin only: the page writes the email into the frame's own empty page)
    const frame = page.locator('iframe[title="HTML preview"]');
    expect(await frame.getAttribute("sandbox")).toBe("allow-same-origin");
    await saveVerificationTemplate(page, form);

    // "Send me a test": received over SMTP with the sample values
    await form.getByRole("button", { name: "Send me a test" }).click();
    await waitForToast(page, /^Test email queued/);
    const [mail] = await waitForMail(admin.email);
    expect(mail?.subject).toBe("Welcome aboard, Maria: confirm ESRT");
    expect(mail?.html).toContain("Hello Maria Lopez,");

    // versions: the original and the edit; Revert to default puts the default back
    await page.getByRole("button", { name: "Versions" }).click();
    const versions = page.getByRole("dialog").getByRole("table", { name: "Versions" });
    await versions.getByText("Before the first edit").waitFor();
    await versions.getByText("Edited").waitFor();
    await pressEscapeInOverlay(page);
    await page.getByRole("dialog").waitFor({ state: "detached" });

    // the delivery log shows the test as sent
    await page.goto(`${suite.server().url}/admin/email-testing`);
    await page.getByRole("heading", { level: 1, name: "Email Testing" }).waitFor();
    const log = page.getByRole("table", { name: "Delivery log" });
    const row = log.locator("tbody tr").filter({ hasText: admin.email });
    await row.filter({ hasText: "Sent" }).waitFor();
    expect(await row.textContent()).toContain("Welcome aboard, Maria: confirm ESRT");
    await row.getByRole("button", { name: /View the message/ }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("heading", { name: "Welcome aboard, Maria: confirm ESRT" }).waitFor();
    await waitForText(
      async () =>
        (await dialog.frameLocator('iframe[title="The message\'s HTML"]').locator("body").textContent()) ??
        "",
      "Hello Maria Lopez,",
    );
    await pressEscapeInOverlay(page);
    await dialog.waitFor({ state: "detached" });

    // the filters: failed shows none of it
    await page.getByLabel("Status").selectOption("failed");
    await page.getByText("No message matches these filters.").waitFor();
  }, 90_000);

  it("the pages pass axe, work by keyboard and fit 375 px", async () => {
    const admin = await createAdmin(suite.db());
    await suite.db().prisma.emailMessage.create({
      data: {
        dedupeKey: "e2e-failed",
        templateKey: "welcome",
        toAddress: "bounced@client.test",
        subject: "Welcome to ESRT Portal",
        html: "<p>Welcome</p>",
        text: "Welcome",
        status: "failed",
        attempts: 8,
        lastError: "550 mailbox unavailable",
      },
    });
    const page = await suite.signedIn(admin, "/admin/email-templates", { bypassCSP: true });
    await page.getByRole("heading", { level: 2, name: "Variables" }).waitFor();
    await page.locator('iframe[title="HTML preview"]').waitFor();
    expect(await axeFindings(page)).toEqual([]);

    // by keyboard: choose a template, open its versions, close them with Escape
    await pressEnterOn(page.getByRole("button", { name: "Password reset" }));
    await page.getByRole("heading", { level: 2, name: "Password reset" }).waitFor();
    const versionsButton = page.getByRole("button", { name: "Versions" });
    await pressEnterOn(versionsButton);
    await page.getByRole("dialog").getByText("No versions yet").waitFor();
    expect(await axeFindings(page)).toEqual([]);
    await pressEscapeInOverlay(page);
    await page.getByRole("dialog").waitFor({ state: "detached" });

    // the testing page: a failed message resent by keyboard, once
    const testing = await suite.signedIn(admin, "/admin/email-testing", { bypassCSP: true });
    const row = testing.getByRole("table", { name: "Delivery log" }).locator("tbody tr").filter({
      hasText: "bounced@client.test",
    });
    await row.waitFor();
    expect(await axeFindings(testing)).toEqual([]);
    await pressEnterOn(row.getByRole("button", { name: /View the message/ }));
    const dialog = testing.getByRole("dialog");
    await dialog.getByText("550 mailbox unavailable").waitFor();
    expect(await axeFindings(testing)).toEqual([]);
    await pressEnterOn(dialog.getByRole("button", { name: "Resend" }));
    await waitForToast(testing, "Message queued again");
    await waitForMail("bounced@client.test");
    await pressEscapeInOverlay(testing);
    await dialog.waitFor({ state: "detached" });
    await waitForText(
      async () =>
        (await suite.db().prisma.emailMessage.findUniqueOrThrow({ where: { dedupeKey: "e2e-failed" } }))
          .status,
      "sent",
    );
    await testing.getByRole("button", { name: "Refresh" }).click();
    await row.filter({ hasText: "Sent" }).waitFor();
    expect(smtp.to("bounced@client.test")).toHaveLength(1);

    // a phone: no sideways scrolling, no violation, on both pages
    for (const path of ["/admin/email-templates", "/admin/email-testing"]) {
      const phone = await suite.signedIn(admin, path, PHONE);
      await phone.getByRole("heading", { level: 1 }).waitFor();
      await phone.getByRole("heading", { level: 2 }).first().waitFor();
      // loaded: no spinner or busy region left (the counts poll, so the network is never idle for long
      // on a loaded machine)
      await phone.waitForFunction(
        "document.querySelector('main .bp6-spinner, main [aria-busy=\"true\"]') === null",
      );
      expect(await axeFindings(phone)).toEqual([]);
      const overflow = await sidewaysScroll(phone);
      expect([path, overflow]).toEqual([path, 0]);
    }
  }, 90_000);
});
