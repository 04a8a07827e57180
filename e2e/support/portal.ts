import { TEST_PASSWORD, uniqueSuffix } from "@services/shared/testing/factories";
import type { Browser, Locator, Page, Request } from "playwright-core";
import { animationsSettled, type PageProblems, recordPageProblems, trackRequests } from "./browser";
import type { TestServer } from "./server";

/** A fresh browser context (its own cookies) with one page, and what the page reported. */
export interface PortalPage {
  page: Page;
  problems: PageProblems;
  close(): Promise<void>;
}

/** How a test's browser context differs from the default (a 1280×800 screen, the app's CSP enforced). */
export interface PortalOptions {
  viewport?: { width: number; height: number };
  /** lets a test inject a script (axe-core) that the app's Content Security Policy would refuse */
  bypassCSP?: boolean;
  /** the system's motion preference (default "reduce"; "no-preference" shows the app's animations) */
  reducedMotion?: "reduce" | "no-preference";
}

/**
 * Opens a page in a new context (so no session is shared between tests) on a large screen unless
 * `options` says otherwise, with a short default timeout; `expected` names console errors the test
 * provokes on purpose.
 */
export async function openPortal(
  browser: Browser,
  expected: readonly RegExp[] = [],
  options: PortalOptions = {},
): Promise<PortalPage> {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1280, height: 800 },
    bypassCSP: options.bypassCSP ?? false,
    // as a user who asked for less motion: overlays and menus appear at once (web/src/styles.css),
    // so no click or colour check meets one still growing or fading in on a loaded machine
    reducedMotion: options.reducedMotion ?? "reduce",
  });
  const page = await context.newPage();
  // Generous enough for a loaded 2-core CI machine; a real failure still fails within the test's timeout.
  page.setDefaultTimeout(15_000);
  const problems = recordPageProblems(page, expected);
  trackRequests(page);
  return { page, problems, close: () => context.close() };
}

/** A phone's screen: 375×740, the width the reflow checks hold the pages to (WCAG 1.4.10). */
export const PHONE_SCREEN = { width: 375, height: 740 } as const;

/** A phone's screen ({@link PHONE_SCREEN}), with the app's CSP bypassed so that axe-core can be injected. */
export const PHONE: PortalOptions = { bypassCSP: true, viewport: PHONE_SCREEN };

/** How far `page` scrolls sideways, in pixels: 0 or less when it fits its screen. */
export function sidewaysScroll(page: Page): Promise<number> {
  return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth");
}

/**
 * Signs in through the login form of /auth and waits for the dashboard.
 * @throws when the dashboard does not open (a 'Login failed' toast, for example).
 */
export async function signInThroughForm(
  page: Page,
  server: TestServer,
  login: string,
  password: string = TEST_PASSWORD,
): Promise<void> {
  await page.goto(`${server.url}/auth`);
  await submitLogin(page, login, password);
  await page.waitForURL(`${server.url}/dashboard`);
}

/**
 * Opens `path` inside the running app, as a link would (react-router follows the history), without
 * reloading the page: what the app holds in memory, its cache among it, stays.
 */
export async function navigateInApp(page: Page, path: string): Promise<void> {
  await page.evaluate(
    `window.history.pushState({}, "", ${JSON.stringify(path)}); window.dispatchEvent(new PopStateEvent("popstate"))`,
  );
  await page.waitForURL((url) => url.pathname === path.split("?")[0]);
}

/** On /auth (already open), fills the login form with `login` and `password` and presses Login. */
export async function submitLogin(page: Page, login: string, password: string): Promise<void> {
  const form = page.getByRole("form", { name: "Login" });
  await form.getByLabel("Username or email").fill(login);
  await form.getByLabel("Password").fill(password);
  await form.getByRole("button", { name: "Login" }).click();
}

/**
 * Signs in with POST /api/login from the page's context (sharing its cookies), faster than the form.
 * @throws when the server does not answer 200.
 */
export async function signInThroughApi(
  page: Page,
  server: Pick<TestServer, "url">,
  login: string,
  password: string = TEST_PASSWORD,
): Promise<void> {
  const res = await page.context().request.post(`${server.url}/api/login`, {
    data: { login, password },
    headers: { Origin: server.url },
  });
  if (res.status() !== 200)
    throw new Error(`login as ${login} answered ${res.status()}: ${await res.text()}`);
}

/** The title and description of every toast on screen (one visible; a replaced one may be fading out). */
export async function toastTexts(page: Page): Promise<string[]> {
  const toasts = await page.locator(".portal-toaster .portal-toast").all();
  const texts: string[] = [];
  for (const toast of toasts) {
    const parts = await toast.locator(":scope > *").allTextContents();
    texts.push(parts.map((part) => part.trim()).join(" "));
  }
  return texts;
}

/**
 * Waits until a toast reads `expected` (its title and description joined by a space).
 * @throws Error listing the toasts seen when none matched within `timeoutMs`.
 */
export async function waitForToast(page: Page, expected: string | RegExp, timeoutMs = 5000): Promise<void> {
  const matches = (text: string) => (typeof expected === "string" ? text === expected : expected.test(text));
  const deadline = Date.now() + timeoutMs;
  let seen: string[] = [];
  for (;;) {
    seen = await toastTexts(page);
    if (seen.some(matches)) return;
    if (Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`No toast reads ${String(expected)}; toasts shown: ${JSON.stringify(seen)}`);
}

/** Opens the top bar's user menu ('Welcome, {first name}') and picks `item` from it. */
export async function chooseFromUserMenu(page: Page, item: string): Promise<void> {
  const entry = page.getByRole("menuitem", { name: item });
  // a menu still closing from an earlier choice would swallow the click on its trigger
  await entry.waitFor({ state: "detached" });
  await page.locator('[data-tour="user-menu"]').click();
  // a click on the menu while it still grows into place can be lost (a CI run: the menu stayed
  // open for 15 s), so it is clicked once it has opened, as a person does
  await entry.waitFor();
  await animationsSettled(page);
  await entry.click();
  await entry.waitFor({ state: "detached" });
}

/** Closes the dashboard's welcome overlay as a person would, and waits until it is gone. */
export async function pastTheOverlay(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Continue to my console" }).click();
  await page.locator(".console-welcome-overlay").waitFor({ state: "detached" });
}

/** Focuses `target` and presses Enter on it, as a keyboard user would. */
export async function pressEnterOn(target: Locator): Promise<void> {
  await target.focus();
  await target.page().keyboard.press("Enter");
}

/**
 * Presses Tab, as a keyboard user would, until `target` has the focus, `most` times at the most;
 * resolves to whether it got there.
 */
export async function tabTo(page: Page, target: Locator, most: number): Promise<boolean> {
  for (let i = 0; i < most; i++) {
    await page.keyboard.press("Tab");
    if (await target.evaluate((el) => el === el.ownerDocument.activeElement)) return true;
  }
  return false;
}

/**
 * Presses Escape in the open dialog, drawer or alert once focus is inside it: Blueprint moves focus
 * into an overlay a frame after it shows and hears Escape only there.
 */
export async function pressEscapeInOverlay(page: Page): Promise<void> {
  await page.locator(".bp6-overlay-open :focus").waitFor({ state: "attached" });
  await page.keyboard.press("Escape");
}

/**
 * On /auth (already open), opens the Register tab, fills the fields given by their labels (in that
 * order) and presses Register; returns the form for the checks that follow.
 */
export async function submitRegistration(page: Page, fields: Record<string, string>): Promise<Locator> {
  await page.getByRole("tab", { name: "Register" }).click();
  const form = page.getByRole("form", { name: "Register" });
  for (const [label, value] of Object.entries(fields)) await form.getByLabel(label).fill(value);
  await form.getByRole("button", { name: "Register" }).click();
  return form;
}

/** A prospect who registers through the form: the names and password, and any optional fields by label. */
export interface Registration {
  firstName: string;
  lastName: string;
  /** the username and email start with it: `{handle}_{suffix}`, `{handle}_{suffix}@example.test` */
  handle: string;
  password: string;
  optional?: Record<string, string>;
}

/**
 * Opens /auth, registers a new prospect through the Register tab with a unique username and email,
 * and waits for the dashboard; returns the username and email it chose.
 * @throws when the dashboard does not open.
 */
export async function registerThroughForm(
  page: Page,
  server: Pick<TestServer, "url">,
  registration: Registration,
): Promise<{ username: string; email: string }> {
  const username = `${registration.handle}_${uniqueSuffix()}`;
  const email = `${username}@example.test`;
  await page.goto(`${server.url}/auth`);
  await submitRegistration(page, {
    "First name": registration.firstName,
    "Last name": registration.lastName,
    Username: username,
    Email: email,
    Password: registration.password,
    ...registration.optional,
  });
  await page.waitForURL(`${server.url}/dashboard`);
  return { username, email };
}

/**
 * Records, from now on, when each of the named GraphQL operations the page sends goes out and when
 * its answer has arrived ("sent Name", "answered Name"; "failed Name" for one that did not), in order.
 */
export function recordOperations(page: Page, names: readonly string[]): string[] {
  const events: string[] = [];
  const operationOf = (request: Request): string | undefined => {
    if (request.method() !== "POST" || !request.url().endsWith("/graphql")) return undefined;
    const name: unknown = request.postDataJSON()?.operationName;
    return typeof name === "string" && names.includes(name) ? name : undefined;
  };
  const note = (what: string) => (request: Request) => {
    const name = operationOf(request);
    if (name) events.push(`${what} ${name}`);
  };
  page.on("request", note("sent"));
  page.on("requestfinished", note("answered"));
  page.on("requestfailed", note("failed"));
  return events;
}
