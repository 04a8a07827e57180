import { readFileSync } from "node:fs";
import path from "node:path";
import type { User } from "@services/shared/generated/prisma/client";
import {
  createAdmin,
  createAppointment,
  createDocument,
  createUser,
} from "@services/shared/testing/factories";
import type { Page } from "playwright-core";
import { type AxeFinding, axeFindings, COLOUR_RULES } from "./support/axe";
import { animationsSettled, requestsDone } from "./support/browser";
import { createStoredDocument, findInQueue } from "./support/documents";
import { PHONE, type PortalOptions } from "./support/portal";
import { browserSuite } from "./support/suite";

// WCAG 2.2 A and AA (axe-core in Chromium) over every route of web/src/routes.tsx for a signed-out
// visitor, a prospect, a client and a mainAdmin, each tab of the console, and a phone-sized screen
// with the top bar's menu closed and open, each in the light and the dark theme. Every page must show
// no violation at all.

const suite = browserSuite();

/**
 * Each route's path in web/src/routes.tsx (read as text: the route table is JSX-free but a .tsx
 * file), as a browser opens it; the catch-all route is any unknown path.
 */
const ROUTE_PATHS = [
  ...readFileSync(path.resolve(__dirname, "../web/src/routes.tsx"), "utf8").matchAll(/\bpath: "([^"]+)"/g),
].map((match) => (match[1] === "*" ? "/no-such-page" : (match[1] ?? "")));

const AUDIT: PortalOptions = { bypassCSP: true };

const CONSOLE_TABS = ["Welcome", "Benefits", "Notes", "Appointments"] as const;

/**
 * Waits until the page shows its heading, no spinner, no request in flight and no running animation
 * (a fade's passing colours are not the page's).
 */
async function settle(page: Page): Promise<void> {
  await page.locator("main h1").first().waitFor();
  await page.waitForFunction("document.querySelector('main .bp6-spinner') === null");
  await requestsDone(page);
  await animationsSettled(page);
}

type Findings = Record<string, AxeFinding[]>;

/** Whether the page shows Blueprint's dark theme. */
const isDark = (page: Page) => page.evaluate("document.body.classList.contains('bp6-dark')");

/**
 * Turns the operating system's colour scheme over (Playwright's emulated prefers-color-scheme), which
 * the app's default theme choice, System, follows at once, and waits until the page shows the other
 * theme with no colour transition running.
 */
async function switchTheme(page: Page): Promise<void> {
  const dark = !(await isDark(page));
  await page.emulateMedia({ colorScheme: dark ? "dark" : "light" });
  await page.waitForFunction(`document.body.classList.contains('bp6-dark') === ${dark}`);
  await animationsSettled(page);
}

/**
 * Audits the page as it is now in both themes (issue 21): every rule in the theme it shows, then the
 * rules a change of colours can break in the other one, where it stays for the next page (each page
 * is audited in one visit, not visited twice), filing what axe finds under `name` or "`name` (dark)".
 */
async function audit(page: Page, name: string, found: Findings): Promise<void> {
  await settle(page);
  for (const rules of [undefined, COLOUR_RULES]) {
    if (rules) await switchTheme(page);
    const findings = await axeFindings(page, { rules });
    if (findings.length > 0) found[(await isDark(page)) ? `${name} (dark)` : name] = findings;
  }
}

/**
 * Goes to `route` inside the page, as the app's own links do (the history's new entry and its
 * popstate: no reload, so the app and axe stay loaded), and waits until `main` shows the page of
 * where it landed (a redirect included); the page's heading and the rest are {@link settle}'s.
 */
async function navigateInApp(page: Page, route: string): Promise<void> {
  await page.evaluate(
    `history.pushState(null, "", ${JSON.stringify(route)}); dispatchEvent(new PopStateEvent("popstate"))`,
  );
  await page.waitForFunction("document.querySelector('main')?.dataset.path === location.pathname");
}

/**
 * Opens every route in turn and audits it, named by where the visitor landed after redirects; a
 * redirect to a page already audited is not audited again. The first route is loaded as a browser
 * opens an address, the others inside the app (the pages are the same; a reload per route only
 * repeated the app's start-up, which the first load and every other browser test cover).
 */
async function auditEveryRoute(page: Page, found: Findings): Promise<string[]> {
  expect(ROUTE_PATHS.length).toBeGreaterThanOrEqual(20);
  const landed: string[] = [];
  for (const [i, route] of ROUTE_PATHS.entries()) {
    if (i === 0) await page.goto(`${suite.server().url}${route}`);
    else await navigateInApp(page, route);
    await settle(page);
    const at = new URL(page.url()).pathname;
    const seen = landed.includes(at);
    landed.push(at);
    if (at !== route && seen) continue;
    await audit(page, at === route ? route : `${route} (sent to ${at})`, found);
  }
  return landed;
}

/** Opens each tab of the console on the current page and audits it. */
async function auditConsoleTabs(page: Page, found: Findings): Promise<void> {
  await page.getByRole("tab", { name: "Welcome" }).waitFor();
  await settle(page);
  const overlay = page.getByRole("button", { name: "Continue to my console" });
  if (await overlay.isVisible()) {
    await overlay.click();
    await overlay.waitFor({ state: "detached" });
  }
  for (const name of CONSOLE_TABS) {
    const tab = page.getByRole("tab", { name });
    await tab.click();
    await page.waitForFunction(
      `document.querySelector('[role="tab"][aria-selected="true"]')?.textContent === ${JSON.stringify(name)}`,
    );
    await audit(page, `${new URL(page.url()).pathname} tab ${name}`, found);
  }
}

async function signedInAs(user: User, options: PortalOptions = AUDIT): Promise<Page> {
  return suite.signedIn(user, "/", options);
}

describe("accessibility (WCAG 2.2 A and AA, axe-core)", () => {
  jest.setTimeout(240_000);

  it("shows a signed-out visitor no violation on any route, nor in the preview console's tabs", async () => {
    const { page } = await suite.open([], AUDIT);
    const found: Findings = {};
    const landed = await auditEveryRoute(page, found);
    // the protected routes send a signed-out visitor to /auth
    expect(landed).toContain("/auth");
    await navigateInApp(page, "/preview-user-console");
    await auditConsoleTabs(page, found);
    expect(found).toEqual({});
  });

  it("shows a prospect no violation on any route, nor in the console's tabs", async () => {
    const page = await signedInAs(await createUser(suite.db(), { userType: "prospect", firstName: "Pat" }));
    const found: Findings = {};
    const landed = await auditEveryRoute(page, found);
    // client-only pages send a prospect to /prospect-landing
    expect(landed).toContain("/prospect-landing");
    await navigateInApp(page, "/dashboard");
    await auditConsoleTabs(page, found);
    expect(found).toEqual({});
  });

  it("shows a client no violation on any route, nor in the console's tabs", async () => {
    const client = await createUser(suite.db(), { userType: "client", firstName: "Cleo" });
    await createAppointment(suite.db(), { userId: client.id });
    // /documents lists a rejected document (its reason shown) and a pending one
    await createDocument(suite.db(), {
      userId: client.id,
      status: "rejected",
      rejectedBy: "Rita Reviewer",
      rejectedAt: new Date(),
      rejectionReason: "The scan is unreadable",
    });
    const pending = await createStoredDocument(suite.db(), { userId: client.id });
    const page = await signedInAs(client);
    const found: Findings = {};
    const landed = await auditEveryRoute(page, found);
    expect(landed).toContain("/appointments");
    // the pending PDF's preview dialog, its page drawn by pdf.js
    await navigateInApp(page, "/documents");
    await page.getByRole("button", { name: `Preview ${pending.title}` }).click();
    await page.getByRole("img", { name: `Page 1 of 1 of ${pending.title}` }).waitFor();
    await audit(page, "/documents' preview dialog", found);
    await page.keyboard.press("Escape");
    await navigateInApp(page, "/dashboard");
    await auditConsoleTabs(page, found);
    expect(found).toEqual({});
  });

  it("shows a mainAdmin no violation on any route (appointments listed), nor in the console's tabs", async () => {
    const client = await createUser(suite.db(), { userType: "client", firstName: "Ada" });
    await createAppointment(suite.db(), { userId: client.id });
    // its file is stored: the panel draws the PDF (pdf.js), which the audit covers
    const pending = await createStoredDocument(suite.db(), {
      userId: client.id,
      description: "For the 2031 filing",
    });
    const page = await signedInAs(await createAdmin(suite.db(), { firstName: "Grace" }));
    const found: Findings = {};
    const landed = await auditEveryRoute(page, found);
    expect(landed).toContain("/admin/appointments");
    await navigateInApp(page, "/admin/appointments");
    await page.getByRole("table", { name: "Appointments" }).locator("tbody tr").first().waitFor();
    await audit(page, "/admin/appointments with a pending appointment", found);
    await navigateInApp(page, "/admin/documentation");
    await findInQueue(page, pending.title);
    await page.getByRole("button", { name: pending.title, exact: true }).click();
    await page
      .getByRole("region", { name: "Selected document" })
      .getByRole("heading", { name: pending.title })
      .waitFor();
    await page.getByRole("img", { name: `Page 1 of 1 of ${pending.title}` }).waitFor();
    await audit(page, "/admin/documentation with a pending document selected", found);
    await page.getByRole("button", { name: "Reject…" }).click();
    await page
      .getByRole("dialog", { name: "Reject document" })
      .getByRole("button", { name: "Reject document" })
      .click();
    await page.getByText("Please give a reason for the rejection").waitFor();
    await audit(page, "/admin/documentation's reject dialog with its error", found);
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: "Send a report to a client" }).click();
    await page.getByRole("dialog", { name: "Send a report to a client" }).waitFor();
    await audit(page, "/admin/documentation's report dialog", found);
    await page.keyboard.press("Escape");
    await navigateInApp(page, "/dashboard");
    await auditConsoleTabs(page, found);
    expect(found).toEqual({});
  });
});

describe("the top bar on a 375 px wide screen (WCAG 1.4.10 Reflow)", () => {
  jest.setTimeout(120_000);

  /** Whether anything of the page reaches past the screen's right or left edge. */
  const overflows = (page: Page) =>
    page.evaluate(
      `(() => {
        const width = document.documentElement.clientWidth;
        if (document.documentElement.scrollWidth > width) return "the page scrolls sideways";
        for (const el of document.querySelectorAll(".portal-topbar *")) {
          const box = el.getBoundingClientRect();
          if (box.width > 0 && (box.left < 0 || box.right > width)) return el.outerHTML.slice(0, 120);
        }
        return null;
      })()`,
    );

  /** Waits for the top bar's menu to have opened, its opening animation over (axe measures sizes). */
  const menuOpened = async (page: Page) => {
    await page.getByRole("menu", { name: "Main menu" }).waitFor();
    // the popover grows from a scaled-down box: wait until it is drawn at its laid-out size
    await page.waitForFunction(`(() => {
      const menu = document.querySelector('[role="menu"][aria-label="Main menu"]');
      if (!menu) return false;
      const box = menu.getBoundingClientRect();
      return Math.abs(box.width - menu.offsetWidth) < 0.5 && Math.abs(box.height - menu.offsetHeight) < 0.5;
    })()`);
    await animationsSettled(page);
  };

  it("folds a signed-in user's links and account items into one menu that fits and passes axe", async () => {
    const admin = await createAdmin(suite.db(), { firstName: "Grace" });
    const page = await suite.signedIn(admin, "/pro-app-features", PHONE);
    await settle(page);
    await expect(overflows(page)).resolves.toBeNull();
    const found: Findings = {};
    await audit(page, "top bar closed", found);

    const menuButton = page.getByRole("button", { name: "Welcome, Grace" });
    await menuButton.click();
    const menu = page.getByRole("menu", { name: "Main menu" });
    await menuOpened(page);
    const items = await menu.getByRole("menuitem").allInnerTexts();
    expect(items.map((text) => text.trim())).toEqual([
      "Dashboard",
      "Admin Dashboard",
      "Pro App Features",
      "Two-factor sign-in",
      "Security questions",
      "Change password",
      "Logout",
    ]);
    await expect(overflows(page)).resolves.toBeNull();
    await audit(page, "top bar menu open", found);
    expect(found).toEqual({});

    // the Dashboard link (unreachable before: it ran off the left edge) opens the dashboard
    await menu.getByRole("menuitem", { name: "Dashboard", exact: true }).click();
    await page.waitForURL(`${suite.server().url}/dashboard`);
  });

  it("gives a signed-out visitor the same menu, with Login / Register", async () => {
    const { page } = await suite.open([], PHONE);
    await page.goto(`${suite.server().url}/`);
    await settle(page);
    await expect(overflows(page)).resolves.toBeNull();
    await page.getByRole("button", { name: "Menu" }).click();
    await menuOpened(page);
    const items = await page.getByRole("menu", { name: "Main menu" }).getByRole("menuitem").allInnerTexts();
    expect(items.map((text) => text.trim())).toEqual(["Pro App Features", "Login / Register"]);
    await expect(axeFindings(page)).resolves.toEqual([]);
  });
});
