import { createAdmin, createUser, uniqueSuffix } from "@services/shared/testing/factories";
import type { Page } from "playwright-core";
import { axeFindings } from "./support/axe";
import { pressEscapeInOverlay } from "./support/portal";
import { browserSuite } from "./support/suite";

// The admin area's command palette in Chromium (issue 21): Ctrl+K on an admin page opens it; typing
// a page's name and Enter (or the arrows first) opens that page; part of a user's email finds the
// user and Enter opens their drawer in User Management; Escape closes it; the page passes axe with
// the palette open; a userAdmin is offered only their pages; outside the admin area it is not there.

// a database of the file's own: the palette's user search answers only this file's users
const suite = browserSuite({}, { isolatedDatabase: true });

const NAME = "Go to a page or find a user";
const paletteOf = (page: Page) => page.getByRole("dialog", { name: NAME });
const boxOf = (page: Page) => paletteOf(page).getByRole("combobox", { name: NAME });

/** Presses Ctrl+K and waits until the palette's box has the focus. */
async function openPalette(page: Page): Promise<void> {
  await page.keyboard.press("Control+k");
  await boxOf(page).waitFor();
  await page.waitForFunction(`document.activeElement?.getAttribute("role") === "combobox"`);
}

/** The option the arrows have reached: the one aria-activedescendant names. */
async function activeOption(page: Page): Promise<string> {
  const id = await boxOf(page).getAttribute("aria-activedescendant");
  if (!id) return "";
  return (await page.locator(`[id="${id}"]`).textContent()) ?? "";
}

describe("the command palette", () => {
  it("opens with Ctrl+K, opens a page by its name with Enter or the arrows, and closes with Escape", async () => {
    const admin = await createAdmin(suite.db());
    const page = await suite.signedIn(admin, "/admin/dashboard");
    await page.getByRole("heading", { level: 1, name: "Admin Dashboard" }).waitFor();

    await openPalette(page);
    await pressEscapeInOverlay(page);
    await paletteOf(page).waitFor({ state: "detached" });

    await openPalette(page);
    await page.keyboard.type("security");
    await expect(activeOption(page)).resolves.toContain("Security Settings");
    await page.keyboard.press("Enter");
    await page.waitForURL(`${suite.server().url}/admin/security`);
    await page.getByRole("heading", { level: 1, name: "Security Settings" }).waitFor();
    await expect(paletteOf(page).count()).resolves.toBe(0);

    // "email" lists the three email pages; the arrows move down the list, wrapping at its ends
    await openPalette(page);
    await page.keyboard.type("email");
    const options = paletteOf(page).getByRole("option");
    await expect(options.allTextContents()).resolves.toEqual([
      expect.stringContaining("Email Templates"),
      expect.stringContaining("Email Settings"),
      expect.stringContaining("Email Testing"),
    ]);
    await paletteOf(page).getByRole("status").getByText("3 pages and 0 users.").waitFor();
    await page.keyboard.press("ArrowUp");
    await expect(activeOption(page)).resolves.toContain("Email Testing");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    await expect(activeOption(page)).resolves.toContain("Email Settings");
    await page.keyboard.press("Enter");
    await page.waitForURL(`${suite.server().url}/admin/email-settings`);
    await page.getByRole("heading", { level: 1, name: "Email Settings" }).waitFor();
  });

  it("finds a user by part of their email and opens their drawer; passes axe while open", async () => {
    const tag = `pal${uniqueSuffix()}`;
    const admin = await createAdmin(suite.db());
    const user = await createUser(suite.db(), {
      userType: "client",
      firstName: "Paloma",
      lastName: `Quill ${tag}`,
      email: `paloma.${tag}@example.test`,
    });
    const page = await suite.signedIn(admin, "/admin/dashboard", { bypassCSP: true });
    await page.getByRole("heading", { level: 1, name: "Admin Dashboard" }).waitFor();
    await openPalette(page);
    await page.keyboard.type(tag);
    const option = paletteOf(page).getByRole("option", { name: `Paloma Quill ${tag}` });
    await option.waitFor();
    await expect(option.textContent()).resolves.toContain(`paloma.${tag}@example.test`);
    await expect(option.getAttribute("aria-selected")).resolves.toBe("true");
    await paletteOf(page).getByRole("status").getByText("0 pages and 1 user.").waitFor();
    expect(await axeFindings(page)).toEqual([]);

    await page.keyboard.press("Enter");
    await page.waitForURL(`${suite.server().url}/admin/user-management?user=${user.id}`);
    await page
      .getByRole("dialog", { name: `Paloma Quill ${tag}` })
      .getByRole("heading", { name: `Paloma Quill ${tag}` })
      .waitFor();
    await expect(paletteOf(page).count()).resolves.toBe(0);
  });

  it("offers a userAdmin only their pages, says when nothing matches, and is not there outside the admin area", async () => {
    const userAdmin = await createAdmin(suite.db(), { userType: "userAdmin" });
    const page = await suite.signedIn(userAdmin, "/admin");
    await page.getByRole("heading", { level: 1, name: "Admin Dashboard" }).waitFor();
    await openPalette(page);
    await expect(paletteOf(page).getByRole("option").allTextContents()).resolves.toEqual([
      expect.stringContaining("Admin Dashboard"),
      expect.stringContaining("User Management"),
      expect.stringContaining("Documentation"),
      expect.stringContaining("ESRT Communication"),
      expect.stringContaining("Appointment Administration"),
    ]);
    await page.keyboard.type("branding zz");
    await paletteOf(page).getByRole("status").getByText("No page or user matches “branding zz”.").waitFor();
    await expect(boxOf(page).getAttribute("aria-expanded")).resolves.toBe("false");
    await pressEscapeInOverlay(page);
    await paletteOf(page).waitFor({ state: "detached" });

    // on a page outside the admin area, Ctrl+K is the browser's again
    await page.goto(`${suite.server().url}/pro-app-features`);
    await page.getByRole("heading", { level: 1 }).first().waitFor();
    await page.keyboard.press("Control+k");
    await expect(page.getByRole("combobox", { name: NAME }).count()).resolves.toBe(0);
  });
});
