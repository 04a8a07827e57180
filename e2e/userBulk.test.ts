import { invitationEmail } from "@services/email";
import { type RunningConsumers, startConsumers } from "@services/shared/events/consumer";
import { memoryTransport } from "@services/shared/events/memory";
import { type Relay, startRelay } from "@services/shared/events/relay";
import { createAdmin, createUser, uniqueSuffix } from "@services/shared/testing/factories";
import { startUserJobRunner } from "@services/user";
import { axeFindings } from "./support/axe";
import { emailedLink } from "./support/mailServer";
import { PHONE, pressEnterOn, sidewaysScroll, signInThroughForm } from "./support/portal";
import { browserSuite } from "./support/suite";

// Creating, changing and importing users in Chromium (issue 11): an administrator creates a client,
// who sets a password with the emailed invitation and signs in; a bulk status change over a few
// users with its progress and result; an import's dry run with the rows' errors. The dialogs pass
// axe, work by keyboard and fit 375 px. The relay, the invitation email consumer and the user-job
// runner run beside the gateway on the file's own database.

const suite = browserSuite({}, { isolatedDatabase: true });

let relay: Relay;
let consumers: RunningConsumers;
let runner: { stop(): Promise<void> };
const transport = memoryTransport();

beforeAll(async () => {
  const db = suite.db();
  relay = await startRelay({ db, transport });
  consumers = await startConsumers({ db, transport, consumers: [invitationEmail], backoffMs: [50, 100] });
  runner = await startUserJobRunner(db, { pollMs: 200 });
});

afterAll(async () => {
  await runner.stop();
  await consumers.stop();
  await relay.stop();
  await transport.close();
});

describe("user administration dialogs in the browser", () => {
  it("creates a client whose emailed invitation sets a password once; the client then signs in", async () => {
    const admin = await createAdmin(suite.db());
    const page = await suite.signedIn(admin, "/admin/user-management", { bypassCSP: true });
    await page.getByRole("button", { name: "Create user" }).click();
    const dialog = page.getByRole("dialog", { name: "Create user" });
    const t = uniqueSuffix();
    // the registration's rules and words, before the server is asked
    await dialog.getByRole("button", { name: "Create and invite" }).click();
    await dialog.getByText("First name is required").waitFor();
    await dialog.getByRole("textbox", { name: /^First name/ }).fill("Cleo");
    await dialog.getByRole("textbox", { name: /^Last name/ }).fill("Client");
    await dialog.getByRole("textbox", { name: /^Username/ }).fill(`cleo_${t}`);
    await dialog.getByRole("textbox", { name: /^Email/ }).fill(`cleo_${t}@client.test`);
    await dialog.getByLabel("User type", { exact: true }).selectOption("client");
    expect(await axeFindings(page)).toEqual([]);
    await dialog.getByRole("button", { name: "Create and invite" }).click();
    await dialog.getByText("Invitation sent", { exact: true }).waitFor();
    await dialog.getByRole("button", { name: "Done" }).click();

    // the invitation's link sets the password; the link then says it was used
    const link = await emailedLink(suite.db(), `cleo_${t}@client.test`, "set-password");
    const visitor = await suite.open();
    await visitor.page.goto(`${suite.server().url}${link}`);
    const form = visitor.page.getByRole("form", { name: "Set your password" });
    await form.getByLabel("Password", { exact: true }).fill("Cleo-Sets-It-42!");
    await form.getByLabel("Confirm password").fill("Cleo-Sets-It-42!");
    await form.getByRole("button", { name: "Set password" }).click();
    await visitor.page.waitForURL(`${suite.server().url}/auth`);
    await signInThroughForm(visitor.page, suite.server(), `cleo_${t}`, "Cleo-Sets-It-42!");

    const again = await suite.open();
    await again.page.goto(`${suite.server().url}${link}`);
    const second = again.page.getByRole("form", { name: "Set your password" });
    await second.getByLabel("Password", { exact: true }).fill("Another-Try-42!");
    await second.getByLabel("Confirm password").fill("Another-Try-42!");
    await second.getByRole("button", { name: "Set password" }).click();
    await again.page.getByText("This invitation link has already been used.", { exact: false }).waitFor();
  }, 60_000);

  it("changes the status of a few users with progress, then lists the skipped one with the reason", async () => {
    const t = uniqueSuffix();
    const company = `Bulk ${t}`;
    const admin = await createAdmin(suite.db());
    await suite.db().prisma.user.update({ where: { id: admin.id }, data: { companyName: company } });
    const users = await Promise.all([1, 2, 3].map(() => createUser(suite.db(), { companyName: company })));
    // the directory searched for the four (the admin among them), every row on the page selected
    const page = await suite.signedIn(admin, `/admin/user-management?q=${encodeURIComponent(company)}`, {
      bypassCSP: true,
    });
    const table = page.getByRole("table", { name: "Users" });
    const rowBoxes = table.getByRole("checkbox", { name: /^Select (?!every)/ });
    await rowBoxes.nth(3).waitFor();
    expect(await rowBoxes.count()).toBe(4);
    // by keyboard, like the rest of this flow
    await table.getByRole("checkbox", { name: "Select every user on this page" }).focus();
    await page.keyboard.press("Space");
    const open = page.getByRole("button", { name: "Bulk actions" });
    // by keyboard: the button, Enter, the selects, Enter
    await pressEnterOn(open);
    const dialog = page.getByRole("dialog", { name: "Bulk actions" });
    await dialog.getByLabel("Action", { exact: true }).selectOption("setStatus");
    await dialog.getByLabel("New value").selectOption("inactive");
    expect(await axeFindings(page)).toEqual([]);
    await dialog.getByRole("button", { name: "Continue" }).click();
    await dialog.getByText("Change the status of 4 users to inactive?").waitFor();
    expect(await axeFindings(page)).toEqual([]);
    await page.keyboard.press("Enter");
    await dialog.getByText("Set status finished").waitFor({ timeout: 20_000 });
    await dialog.getByText("4 of 4 users · 3 changed · 1 skipped").waitFor();
    const problems = dialog.getByRole("region", { name: "Skipped and failed users" });
    await problems.getByText("You cannot change your own user type or status").waitFor();
    expect(await axeFindings(page)).toEqual([]);
    for (const user of users) {
      expect((await suite.db().prisma.user.findUniqueOrThrow({ where: { id: user.id } })).userStatus).toBe(
        "inactive",
      );
    }
    await pressEnterOn(dialog.getByRole("button", { name: "Done" }));
    await dialog.waitFor({ state: "detached" });
    await expect(open.evaluate((el) => el === el.ownerDocument.activeElement)).resolves.toBe(true);
  }, 60_000);

  it("shows an import's dry run with each bad row, creates nothing, and fits 375 px", async () => {
    const admin = await createAdmin(suite.db());
    const t = uniqueSuffix();
    const csv = [
      "firstName,lastName,username,email,phone,companyName",
      `Ada,Lovelace,ada_${t},ada_${t}@client.test,,Engines`,
      `,Babbage,cb,not-an-email,,`,
    ].join("\n");
    const page = await suite.signedIn(admin, "/admin/user-management", PHONE);
    await page.getByRole("button", { name: "Import" }).click();
    const dialog = page.getByRole("dialog", { name: "Import clients" });
    await dialog.locator('input[type="file"]').setInputFiles({
      name: "clients.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(csv),
    });
    await dialog.getByText("1 of 2 rows can be imported").waitFor();
    const rows = dialog.getByRole("region", { name: "Rows with errors" });
    await rows.getByText("First name is required").waitFor();
    await rows.getByText("Username must be at least 3 characters").waitFor();
    await rows.getByText("Please enter a valid email address").waitFor();
    await dialog.getByRole("button", { name: "Import 1 client and send invitations" }).waitFor();
    expect(await suite.db().prisma.user.count({ where: { username: `ada_${t}` } })).toBe(0);
    expect(await axeFindings(page)).toEqual([]);
    expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);

    await dialog.getByRole("button", { name: "Import 1 client and send invitations" }).click();
    await dialog.getByText("Import finished").waitFor({ timeout: 20_000 });
    expect(
      (await suite.db().prisma.user.findUniqueOrThrow({ where: { username: `ada_${t}` } })).userType,
    ).toBe("client");
    await emailedLink(suite.db(), `ada_${t}@client.test`, "set-password");
    expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);

    // the create dialog at 375 px too, once the import dialog is gone
    await dialog.getByRole("button", { name: "Done" }).click();
    await dialog.waitFor({ state: "detached" });
    await page.getByRole("button", { name: "Create user" }).click();
    await page
      .getByRole("dialog", { name: "Create user" })
      .getByRole("textbox", { name: /^First name/ })
      .waitFor();
    expect(await axeFindings(page)).toEqual([]);
    expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);
  }, 60_000);
});
