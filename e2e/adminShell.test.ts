import { createAdmin, createUser, uniqueSuffix } from "@services/shared/testing/factories";
import type { Locator, Page } from "playwright-core";
import { axeFindings } from "./support/axe";
import { animationsSettled, requestsDone } from "./support/browser";
import { PHONE, tabTo } from "./support/portal";
import { browserSuite } from "./support/suite";

// The admin console as a workplace (issue 21 §1): the admin navigation on every admin page (the
// pages this admin may open, the current one marked, folded to icons and remembered, by keyboard,
// in the top bar's menu below 768 px), data pages at the screen's width with one-line values cut
// with an ellipsis, and the light, dark or system theme of the user menu.

const suite = browserSuite();

const adminNav = (page: Page) => page.getByRole("navigation", { name: "Admin" });

/** The admin navigation as its lists read: each group's name and its links' names (once it shows). */
async function navOutline(page: Page): Promise<[string, string[]][]> {
  await adminNav(page).getByRole("link").first().waitFor();
  const outline: [string, string[]][] = [];
  for (const list of await adminNav(page).getByRole("list").all()) {
    const name = await list.evaluate(
      (el) => el.ownerDocument.getElementById(el.getAttribute("aria-labelledby") ?? "")?.textContent ?? "",
    );
    const links = await list
      .getByRole("link")
      .evaluateAll((as) => as.map((a) => a.getAttribute("aria-label") ?? a.textContent ?? ""));
    outline.push([name, links]);
  }
  return outline;
}

/**
 * The names of the links marked as the current page (aria-current="page") in the admin navigation,
 * once it shows.
 */
async function currentLinks(page: Page): Promise<string[]> {
  await adminNav(page).getByRole("link").first().waitFor();
  return adminNav(page)
    .locator('a[aria-current="page"]')
    .evaluateAll((as) => as.map((a) => a.getAttribute("aria-label") ?? a.textContent ?? ""));
}

/** What the waits below read of the page's document (this code is type-checked without the DOM's types). */
interface MainDocument {
  querySelector(selector: string): { dataset: Record<string, string | undefined> } | null;
}
interface BodyDocument {
  body: { classList: { contains(name: string): boolean } };
}

/** Waits until `main` shows the page at `path` with its heading. */
async function landedOn(page: Page, path: string): Promise<void> {
  await page.waitForFunction(
    (p) =>
      (globalThis as unknown as { document: MainDocument }).document.querySelector("main")?.dataset.path ===
      p,
    path,
  );
  await page.locator("main h1").first().waitFor();
}

const MAIN_ADMIN_OUTLINE = [
  ["People", ["Dashboard", "User management", "Appointments", "Documentation"]],
  ["Pro app", ["ESRT Communication"]],
  ["Settings", ["Branding", "Security", "Storage"]],
  ["Email", ["Email templates", "Email settings", "Email testing"]],
  ["Tools", ["Testing tools"]],
];

/** Every admin page by the name of its link, where it leads, and whether it is a data page (full width). */
const ADMIN_PAGES: [string, string, boolean][] = [
  ["User management", "/admin/user-management", true],
  ["Appointments", "/admin/appointments", true],
  ["Documentation", "/admin/documentation", true],
  ["ESRT Communication", "/admin/esrt-communication", true],
  ["Branding", "/admin/branding", false],
  ["Security", "/admin/security", false],
  ["Storage", "/admin/storage", false],
  ["Email templates", "/admin/email-templates", true],
  ["Email settings", "/admin/email-settings", false],
  ["Email testing", "/admin/email-testing", true],
  ["Testing tools", "/admin/testing", false],
  ["Dashboard", "/admin", true],
];

describe("the admin navigation", () => {
  jest.setTimeout(90_000);

  it("stays beside every admin page, lists a mainAdmin's pages by group and marks the current one", async () => {
    // a wide screen, where a form's readable column and a data page's full width differ
    const page = await suite.signedIn(await createAdmin(suite.db()), "/admin", {
      viewport: { width: 1600, height: 900 },
    });
    await landedOn(page, "/admin");
    await expect(navOutline(page)).resolves.toEqual(MAIN_ADMIN_OUTLINE);
    await expect(currentLinks(page)).resolves.toEqual(["Dashboard"]);
    // one navigation for the whole visit: marked here, still marked after every page
    await adminNav(page).evaluate((el) => {
      (el as unknown as { kept: boolean }).kept = true;
    });

    for (const [name, path, wide] of ADMIN_PAGES) {
      await adminNav(page).getByRole("link", { name, exact: true }).click();
      await landedOn(page, path);
      await expect(currentLinks(page)).resolves.toEqual([name]);
      await expect(
        adminNav(page).evaluate((el) => (el as unknown as { kept?: boolean }).kept === true),
      ).resolves.toBe(true);
      // data pages use the screen's width (1600 less the page's margins and the navigation: 1336 px,
      // where every page had 1060 before); forms a readable column
      const width = await page.locator(".admin-content").evaluate((el) => el.getBoundingClientRect().width);
      if (wide) expect(width).toBeGreaterThan(1300);
      else expect(width).toBeLessThanOrEqual(1060);
    }
    // the dashboard's other address is the same page
    await page.goto(`${suite.server().url}/admin/dashboard`);
    await landedOn(page, "/admin/dashboard");
    await expect(currentLinks(page)).resolves.toEqual(["Dashboard"]);
  });

  it("shows a userAdmin only the pages its permissions open", async () => {
    const userAdmin = await createAdmin(suite.db(), { userType: "userAdmin" });
    const page = await suite.signedIn(userAdmin, "/admin/user-management");
    await landedOn(page, "/admin/user-management");
    await expect(navOutline(page)).resolves.toEqual([
      ["People", ["Dashboard", "User management", "Appointments", "Documentation"]],
      ["Pro app", ["ESRT Communication"]],
    ]);
    // a page it may not open: refused, with the navigation back to its own pages
    await page.goto(`${suite.server().url}/admin/branding`);
    await page.getByText("Permission Denied").waitFor();
    await expect(currentLinks(page)).resolves.toEqual([]);
    await expect(navOutline(page)).resolves.toHaveLength(2);
  });

  it("is reached and followed by keyboard, and folds to its icons until unfolded, across reloads", async () => {
    const page = await suite.signedIn(await createAdmin(suite.db()), "/admin/user-management");
    await landedOn(page, "/admin/user-management");
    const nav = adminNav(page);
    const collapse = nav.getByRole("button", { name: "Collapse the admin navigation" });

    // from the top of the page, Tab passes the top bar and reaches the navigation
    expect(await tabTo(page, collapse, 15)).toBe(true);
    await page.keyboard.press("Tab");
    const dashboard = nav.getByRole("link", { name: "Dashboard" });
    await expect(dashboard.evaluate((el) => el === el.ownerDocument.activeElement)).resolves.toBe(true);
    // a visible focus ring
    await expect(
      dashboard.evaluate((el) => {
        const style = el.ownerDocument.defaultView?.getComputedStyle(el);
        return (
          style !== undefined && style.outlineStyle !== "none" && Number.parseFloat(style.outlineWidth) >= 2
        );
      }),
    ).resolves.toBe(true);
    const appointments = nav.getByRole("link", { name: "Appointments" });
    expect(await tabTo(page, appointments, 3)).toBe(true);
    await page.keyboard.press("Enter");
    await landedOn(page, "/admin/appointments");
    await expect(currentLinks(page)).resolves.toEqual(["Appointments"]);
    // focus stays where the keyboard user left it
    await expect(appointments.evaluate((el) => el === el.ownerDocument.activeElement)).resolves.toBe(true);

    // folded: icons only, every link still named; remembered after a reload
    await collapse.focus();
    await page.keyboard.press("Enter");
    const expand = nav.getByRole("button", { name: "Expand the admin navigation" });
    await expect(expand.getAttribute("aria-expanded")).resolves.toBe("false");
    const folded = async () => {
      const box = await nav.getByRole("link", { name: "User management" }).boundingBox();
      return box?.width ?? Number.NaN;
    };
    expect(await folded()).toBeLessThan(60);
    await page.reload();
    await landedOn(page, "/admin/appointments");
    await expand.waitFor();
    expect(await folded()).toBeLessThan(60);
    await expect(navOutline(page)).resolves.toEqual(MAIN_ADMIN_OUTLINE);

    await expand.click();
    await collapse.waitFor();
    await page.reload();
    await landedOn(page, "/admin/appointments");
    await collapse.waitFor();
    expect(await folded()).toBeGreaterThan(150);
  });

  it("folds into the top bar's menu below 768 px, which leads to every page the admin may open", async () => {
    const page = await suite.signedIn(await createAdmin(suite.db(), { firstName: "Grace" }), "/admin", PHONE);
    await landedOn(page, "/admin");
    await expect(adminNav(page).count()).resolves.toBe(0);

    // the menu's button works once its code has loaded (until then it shows, inert)
    await requestsDone(page);
    await page.getByRole("button", { name: "Welcome, Grace" }).click();
    const menu = page.getByRole("menu", { name: "Main menu" });
    await menu.waitFor();
    const items = await menu
      .getByRole("menuitem")
      .evaluateAll((els) => els.map((el) => el.getAttribute("aria-label") ?? el.textContent?.trim() ?? ""));
    expect(items).toEqual([
      "Dashboard",
      "Admin Dashboard",
      "Pro App Features",
      ...MAIN_ADMIN_OUTLINE.flatMap(([, links]) => links as string[]),
      "Two-factor sign-in",
      "Security questions",
      "Change password",
      "Logout",
    ]);
    await expect(menu.locator('[aria-current="page"]').getAttribute("href")).resolves.toBe("/admin");
    // the menu's own layout and colours pass axe in both themes
    await animationsSettled(page);
    await expect(axeFindings(page)).resolves.toEqual([]);
    await page.emulateMedia({ colorScheme: "dark" });
    await page.waitForFunction("document.body.classList.contains('bp6-dark')");
    await expect(axeFindings(page, { rules: ["color-contrast"] })).resolves.toEqual([]);

    await menu.getByRole("menuitem", { name: "Email testing" }).click();
    await landedOn(page, "/admin/email-testing");
    await expect(adminNav(page).count()).resolves.toBe(0);
  });
});

describe("the user table at 1280 px", () => {
  /** The email cell's value in the row of `email`. */
  const emailValue = (page: Page, email: string): Locator =>
    page.getByRole("table", { name: "Users" }).locator(".portal-cell-text", { hasText: email });

  /** How the value is laid out: its lines, whether it is cut, the ellipsis and the tooltip. */
  const layout = (value: Locator) =>
    value.evaluate((el) => {
      const style = el.ownerDocument.defaultView?.getComputedStyle(el);
      const box = el.getBoundingClientRect();
      return {
        lines: style ? Math.round(box.height / Number.parseFloat(style.lineHeight)) : Number.NaN,
        cut: el.scrollWidth > el.clientWidth,
        ellipsis: style?.textOverflow === "ellipsis" && style.whiteSpace === "nowrap",
        title: el.getAttribute("title"),
        text: el.textContent,
        onScreen: box.right <= el.ownerDocument.documentElement.clientWidth,
      };
    });

  it("shows a whole email on one line, and cuts one too long with an ellipsis and a tooltip", async () => {
    const tag = `wide${uniqueSuffix()}`;
    const fits = `adalinda.featherstone.${tag}@example.test`;
    const tooLong = `a.rather.long.mailbox.name.for.${tag}@accounts-payable.receivables-partners.example`;
    await createUser(suite.db(), { email: fits, firstName: "Adalinda", lastName: "Featherstone" });
    await createUser(suite.db(), { email: tooLong, firstName: "Bo", lastName: "Li" });
    const page = await suite.signedIn(await createAdmin(suite.db()), `/admin/user-management?q=${tag}`);
    await page.getByText("1–2 of 2 users").waitFor();

    await expect(layout(emailValue(page, fits))).resolves.toEqual({
      lines: 1,
      cut: false,
      ellipsis: true,
      title: null,
      text: fits,
      onScreen: true,
    });
    await expect(layout(emailValue(page, tooLong))).resolves.toEqual({
      lines: 1,
      cut: true,
      ellipsis: true,
      title: tooLong,
      text: tooLong,
      onScreen: true,
    });

    // the filter column can be put away for the table, and stays so
    await page.getByRole("button", { name: "Hide filters" }).click();
    await expect(page.getByRole("form", { name: "Filter users" }).count()).resolves.toBe(0);
    await page.reload();
    await page.getByRole("button", { name: "Show filters" }).click();
    await page.getByRole("form", { name: "Filter users" }).waitFor();
  });
});

describe("the theme", () => {
  jest.setTimeout(60_000);

  /** Opens the user menu, picks the theme `name` ("Dark theme") and waits for the menu to close. */
  async function chooseTheme(page: Page, name: string): Promise<void> {
    await page.locator('[data-tour="user-menu"]').click();
    const item = page.getByRole("menuitemradio", { name });
    await item.waitFor();
    // clicked once the menu has opened, as a person would (a click on a menu still growing into place
    // was once lost on a loaded machine)
    await animationsSettled(page);
    await item.click();
    await item.waitFor({ state: "detached" });
  }

  /** The theme choice the user menu shows as checked. */
  async function checkedTheme(page: Page): Promise<string | null> {
    await page.locator('[data-tour="user-menu"]').click();
    const checked = page.getByRole("menuitemradio", { checked: true });
    const name = await checked.getAttribute("aria-label");
    await page.keyboard.press("Escape");
    await checked.waitFor({ state: "detached" });
    return name;
  }

  const dark = (page: Page) =>
    page.evaluate(
      "[document.body.classList.contains('bp6-dark'), document.documentElement.style.colorScheme]",
    ) as Promise<[boolean, string]>;

  /**
   * Waits until the page shows the dark theme (or, `on` false, the light one). A function, not a
   * string: Playwright polls a string with eval, which the app's CSP refuses.
   */
  const themeTurns = (page: Page, on: boolean) =>
    page.waitForFunction(
      (want) =>
        (globalThis as unknown as { document: BodyDocument }).document.body.classList.contains("bp6-dark") ===
        want,
      on,
    );

  it("is chosen in the user menu, survives a reload, and with System follows the operating system", async () => {
    const client = await createUser(suite.db(), { userType: "client", firstName: "Cleo" });
    const page = await suite.signedIn(client, "/pro-app-features");
    await page.getByRole("heading", { level: 1, name: "Pro App Features" }).waitFor();
    await expect(checkedTheme(page)).resolves.toBe("System theme");
    await expect(dark(page)).resolves.toEqual([false, "light"]);

    await chooseTheme(page, "Dark theme");
    await expect(dark(page)).resolves.toEqual([true, "dark"]);

    // after a reload the app renders in the dark theme from its first render on
    await page.addInitScript({
      content: `new MutationObserver((_, observer) => {
        if (document.getElementById("root")?.firstChild) {
          window.darkAtFirstRender = document.body.classList.contains("bp6-dark");
          observer.disconnect();
        }
      }).observe(document, { childList: true, subtree: true });`,
    });
    await page.reload();
    await page.getByRole("heading", { level: 1, name: "Pro App Features" }).waitFor();
    await expect(page.evaluate("window.darkAtFirstRender")).resolves.toBe(true);
    await expect(checkedTheme(page)).resolves.toBe("Dark theme");

    // Light holds whatever the operating system prefers
    await page.emulateMedia({ colorScheme: "dark" });
    await chooseTheme(page, "Light theme");
    await expect(dark(page)).resolves.toEqual([false, "light"]);

    // System follows the operating system's setting as it changes, without a reload
    await chooseTheme(page, "System theme");
    await expect(dark(page)).resolves.toEqual([true, "dark"]);
    await page.emulateMedia({ colorScheme: "light" });
    await themeTurns(page, false);
    await page.emulateMedia({ colorScheme: "dark" });
    await themeTurns(page, true);
    await page.reload();
    await page.getByRole("heading", { level: 1, name: "Pro App Features" }).waitFor();
    await expect(dark(page)).resolves.toEqual([true, "dark"]);
    await expect(checkedTheme(page)).resolves.toBe("System theme");
  });
});

describe("motion", () => {
  /** How long the sign-in form's fields take to change their outline (a transition Blueprint declares). */
  async function fieldTransition(reducedMotion: "reduce" | "no-preference"): Promise<unknown> {
    const { page } = await suite.open([], { reducedMotion });
    await page.goto(`${suite.server().url}/auth`);
    await page.locator(".bp6-input").first().waitFor();
    return page.evaluate("getComputedStyle(document.querySelector('.bp6-input')).transitionDuration");
  }

  it("shows menus at once, without growing or fading, to a user whose system asks for less motion", async () => {
    // the app's motion as it is for everyone else, and none for those who asked for less
    expect(await fieldTransition("no-preference")).not.toBe("0s");
    expect(await fieldTransition("reduce")).toBe("0s");

    const user = await createUser(suite.db(), { firstName: "Mona" });
    const page = await suite.signedIn(user, "/dashboard", { reducedMotion: "reduce" });
    await page.locator('[data-tour="user-menu"]').click();
    await page.getByRole("menuitem", { name: "Change password" }).waitFor();
    // open, and nothing left to grow into place: the menu's first frame is its last (finite
    // animations and transitions only; a spinner's endless turn aside)
    const moving = await page.evaluate(
      "document.getAnimations().filter((a) => a.effect && a.effect.getTiming().iterations !== Infinity).length",
    );
    expect(moving).toBe(0);
  });
});
