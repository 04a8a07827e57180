import type { AppDeps } from "@gateway/app";
import { isolatedDb } from "@services/document/testing";
import type { Db } from "@services/shared/db";
import type { User } from "@services/shared/generated/prisma/client";
import { testDb } from "@services/shared/testing/db";
import type { Browser, Page } from "playwright-core";
import { launchBrowser } from "./browser";
import { navigateInApp, openPortal, type PortalOptions, type PortalPage, signInThroughApi } from "./portal";
import { startTestServer, type TestServer } from "./server";

/** What a browser test file works with, ready once its beforeAll has run. */
export interface BrowserSuite {
  server(): TestServer;
  db(): Db;
  /**
   * Opens a new context (its own cookies); `expected` names problems the test provokes on purpose,
   * `options` a screen size or a bypassed CSP.
   */
  open(expected?: readonly RegExp[], options?: PortalOptions): Promise<PortalPage>;
  /** Opens a new context signed in as `user` (POST /api/login) on `path`. */
  signedIn(user: User, path: string, options?: PortalOptions): Promise<Page>;
  /**
   * A page signed in as `user` that the file's tests share (closed after the last): the first call
   * opens it on `path` as {@link signedIn} does, later ones go to `path` inside the running app
   * ({@link visit}), sparing a context, a sign-in and the app's start-up. Only for tests that read
   * what a fresh load would show, not for ones that depend on a fresh page (its cache, its focus).
   * What the page reports is checked after every test, as for any other page.
   */
  kept(user: User, path: string): Promise<Page>;
}

/** What {@link visit}'s wait reads of the page (this code is type-checked without the DOM's types). */
interface LandedWindow {
  location: { pathname: string };
  document: { querySelector(selector: string): { dataset: Record<string, string | undefined> } | null };
}

/**
 * Opens `path` inside the running app (no reload: the app, its cache and its session stay) and
 * waits until `main` shows the page it landed on (a redirect's target included).
 */
export async function visit(page: Page, path: string): Promise<void> {
  await navigateInApp(page, path);
  // a function, not a string: Playwright polls a string with eval, which the app's CSP refuses
  await page.waitForFunction(() => {
    const { document, location } = globalThis as unknown as LandedWindow;
    return document.querySelector("main")?.dataset.path === location.pathname;
  });
}

/**
 * The Redis key prefix of a file on a database of its own (`url`): the run's prefix and the
 * database's name. Its users' ids start where another isolated file's do, so under the run's prefix
 * a session revoked by user id in one file (a password change, a deactivation) revoked the other's.
 */
function isolatedRedisPrefix(url: string | undefined): Record<string, string> {
  if (!url) return {};
  return { REDIS_PREFIX: `${process.env.REDIS_PREFIX ?? ""}${new URL(url).pathname.slice(1)}:` };
}

/**
 * Registers the hooks of a browser test file: a portal server and Chromium for the file, and after
 * each test, every page it opened closed, none having reported a problem.
 */
export function browserSuite(
  env: Record<string, string> = {},
  options: { isolatedDatabase?: boolean; probes?: AppDeps["probes"] } = {},
): BrowserSuite {
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  let db: Db | undefined;
  let isolated: { db: Db; url: string; drop(): Promise<void> } | undefined;
  let portals: PortalPage[] = [];
  const keptPages = new Map<number, PortalPage>();

  beforeAll(async () => {
    // a database of the file's own, for tests that run workers claiming every row of a kind
    isolated = options.isolatedDatabase ? await isolatedDb() : undefined;
    db = isolated?.db ?? (await testDb());
    server = await startTestServer(
      { ...isolatedRedisPrefix(isolated?.url), ...env },
      { db, probes: options.probes },
    );
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const kept of keptPages.values()) await kept.close();
    keptPages.clear();
    await browser?.close();
    await server?.stop();
    await isolated?.drop();
  });
  afterEach(async () => {
    const opened = portals;
    portals = [];
    // what the pages reported during the test, before closing them aborts anything still loading
    const reported = opened.map((p) => [...p.problems.messages]);
    // a kept page's reports are this test's: checked, then cleared for the next test
    for (const kept of keptPages.values()) reported.push(kept.problems.messages.splice(0));
    for (const p of opened) await p.close();
    for (const messages of reported) expect(messages).toEqual([]);
  });

  const ready = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`${name} is not ready: use it inside a test`);
    return value;
  };
  const open = async (expected: readonly RegExp[] = [], options: PortalOptions = {}) => {
    const portal = await openPortal(ready(browser, "the browser"), expected, options);
    portals.push(portal);
    return portal;
  };
  const signedIn = async (portal: PortalPage, user: User, path: string): Promise<Page> => {
    const url = ready(server, "the server").url;
    await signInThroughApi(portal.page, ready(server, "the server"), user.username);
    await portal.page.goto(`${url}${path}`);
    return portal.page;
  };
  return {
    server: () => ready(server, "the server"),
    db: () => ready(db, "the database"),
    open,
    async signedIn(user, path, options = {}) {
      return signedIn(await open([], options), user, path);
    },
    async kept(user, path) {
      const kept = keptPages.get(user.id);
      if (kept) {
        await visit(kept.page, path);
        return kept.page;
      }
      const portal = await openPortal(ready(browser, "the browser"));
      keptPages.set(user.id, portal);
      return signedIn(portal, user, path);
    },
  };
}
