import { readFile } from "node:fs/promises";
import type { User } from "@services/shared/generated/prisma/client";
import { createAdmin, createUser, uniqueSuffix } from "@services/shared/testing/factories";
import { parse as parseCsv } from "csv-parse/sync";
import type { Page } from "playwright-core";
import { axeFindings } from "./support/axe";
import { downloadedFile } from "./support/browser";
import { PHONE, pressEnterOn, sidewaysScroll } from "./support/portal";
import { browserSuite } from "./support/suite";

// The user directory in Chromium (issue 11): an administrator finds users by part of their email,
// sees them in the table and exports exactly the filtered list; the page, with data, passes axe,
// works by keyboard alone (search, a filter, sorting, paging, selecting, opening a user) and fits a
// 375 px screen without sideways scrolling.

const suite = browserSuite();

const table = (page: Page) => page.getByRole("table", { name: "Users" });
const rows = (page: Page) => table(page).locator("tbody tr");

/** Waits until the table shows exactly these users (by id, in any order). */
async function expectRows(page: Page, users: { id: number }[]): Promise<void> {
  const wanted = users.map((u) => String(u.id)).sort();
  const deadline = Date.now() + 10_000;
  for (;;) {
    const shown = await rows(page).evaluateAll((trs) =>
      trs.map((tr) => tr.getAttribute("data-user-id") ?? ""),
    );
    if (JSON.stringify(shown.sort()) === JSON.stringify(wanted)) return;
    if (Date.now() > deadline)
      throw new Error(`the table shows ${shown.join(", ")}, expected ${wanted.join(", ")}`);
    await page.waitForTimeout(100);
  }
}

describe("User Management in the browser", () => {
  it("finds users by part of the email, shows them, and exports exactly the filtered list", async () => {
    const tag = `um${uniqueSuffix()}`;
    const admin = await createAdmin(suite.db());
    const prospect = await createUser(suite.db(), {
      email: `findme.${tag}.pat@example.test`,
      firstName: "Pat",
      lastName: "O'Neill",
    });
    const client = await createUser(suite.db(), {
      email: `findme.${tag}.zoe@example.test`,
      firstName: "Zoë",
      lastName: "Client",
      userType: "client",
    });
    await createUser(suite.db(), { email: `other.${tag}@example.test`, firstName: "Not", lastName: "Found" });

    const page = await suite.signedIn(admin, "/admin/user-management");
    await page.getByRole("heading", { level: 1, name: "User Management" }).waitFor();
    await page.getByRole("searchbox", { name: "Search users" }).fill(`findme.${tag}`);
    await expectRows(page, [prospect, client]);
    await table(page).getByText(`findme.${tag}.pat@example.test`).waitFor();
    await table(page).getByRole("button", { name: "Zoë Client: open" }).waitFor();
    await page.getByText("1–2 of 2 users").waitFor();
    expect(new URL(page.url()).searchParams.get("q")).toBe(`findme.${tag}`);

    // the type filter narrows it to the client; the export follows the filter
    const clientBox = page.getByRole("checkbox", { name: /^Client \(1\)$/ });
    await clientBox.focus();
    await page.keyboard.press("Space");
    await expectRows(page, [client]);
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^users-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = parseCsv(await readFile(await downloadedFile(download)), { columns: true }) as Record<
      string,
      string
    >[];
    expect(csv.map((r) => r.id)).toEqual([String(client.id)]);
    expect(csv[0]).toMatchObject({ email: client.email, firstName: "Zoë", userType: "client" });

    // without the type filter, both
    await page.getByRole("checkbox", { name: /^Client/ }).focus();
    await page.keyboard.press("Space");
    await expectRows(page, [prospect, client]);
    const [both] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export CSV" }).click(),
    ]);
    const all = parseCsv(await readFile(await downloadedFile(both)), { columns: true }) as { id: string }[];
    expect(all.map((r) => r.id).sort()).toEqual([String(prospect.id), String(client.id)].sort());

    // nothing matches: the empty state clears the filters
    await page.getByRole("searchbox", { name: "Search users" }).fill(`nobody-${tag}`);
    await page.getByText("No users match").waitFor();
    await page.getByRole("button", { name: "Clear filters" }).last().click();
    await rows(page).first().waitFor();
    expect(await page.getByRole("searchbox", { name: "Search users" }).inputValue()).toBe("");
  }, 60_000);

  it("with data, has no WCAG 2.2 A/AA violation, works by keyboard alone, and fits 375 px", async () => {
    const tag = `kb${uniqueSuffix()}`;
    const admin = await createAdmin(suite.db());
    const users: User[] = [];
    for (let i = 0; i < 30; i += 1) {
      users.push(
        await createUser(suite.db(), {
          companyName: `Keyboard ${tag}`,
          lastName: `Row${String(i).padStart(2, "0")}`,
          userType: i % 3 === 0 ? "client" : "prospect",
        }),
      );
    }
    const page = await suite.signedIn(admin, `/admin/user-management?size=25`, { bypassCSP: true });
    await rows(page).first().waitFor();
    expect(await axeFindings(page)).toEqual([]);

    // search by keyboard
    const search = page.getByRole("searchbox", { name: "Search users" });
    await search.focus();
    await page.keyboard.type(`keyboard ${tag}`);
    await page.getByText("1–25 of 30 users").waitFor();

    // a filter by keyboard: Tab to the Prospect checkbox, Space
    const prospectBox = page.getByRole("checkbox", { name: /^Prospect \(20\)$/ });
    await prospectBox.focus();
    await page.keyboard.press("Space");
    await page.getByText("1–20 of 20 users").waitFor();
    await prospectBox.focus();
    await page.keyboard.press("Space");
    await page.getByText("1–25 of 30 users").waitFor();

    // sort by name with Enter: ascending, then descending
    const nameSort = page.getByRole("button", { name: /^Name: sort/ });
    await pressEnterOn(nameSort);
    await page.locator("th[aria-sort='ascending']", { hasText: "Name" }).waitFor();
    await table(page)
      .getByRole("button", { name: /Row00: open$/ })
      .waitFor();
    await pressEnterOn(nameSort);
    await page.locator("th[aria-sort='descending']", { hasText: "Name" }).waitFor();
    await table(page)
      .getByRole("button", { name: /Row29: open$/ })
      .waitFor();

    // paging by keyboard: Next, then Previous
    await pressEnterOn(page.getByRole("button", { name: "Next" }));
    await page.getByText("26–30 of 30 users").waitFor();
    await table(page)
      .getByRole("button", { name: /Row04: open$/ })
      .waitFor();
    await pressEnterOn(page.getByRole("button", { name: "Previous" }));
    await page.getByText("1–25 of 30 users").waitFor();

    // select a row with Space; the toolbar offers every matching user and the bulk actions
    const last = users[29] as User;
    const rowBox = page.getByRole("checkbox", { name: `Select Test ${last.lastName}` });
    await rowBox.focus();
    await page.keyboard.press("Space");
    await page.getByText("1 selected").waitFor();
    await page.getByRole("button", { name: "Select all 30 matching" }).waitFor();
    await page.getByRole("button", { name: "Bulk actions (1)…" }).waitFor();
    expect(await axeFindings(page)).toEqual([]);

    // open the user with Enter: the drawer's address
    await table(page)
      .getByRole("button", { name: `Test ${last.lastName}: open` })
      .focus();
    await page.keyboard.press("Enter");
    await page.waitForURL((url) => url.searchParams.get("user") === String(last.id));

    // a phone: no sideways scrolling, no violation
    const phone = await suite.signedIn(
      admin,
      `/admin/user-management?q=${encodeURIComponent(`keyboard ${tag}`)}`,
      PHONE,
    );
    await rows(phone).first().waitFor();
    expect(await axeFindings(phone)).toEqual([]);
    const overflow = await sidewaysScroll(phone);
    expect(overflow).toBeLessThanOrEqual(0);
  }, 90_000);
});
