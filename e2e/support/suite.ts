import type { AppDeps } from "@gateway/app";
import { isolatedDb } from "@services/document/testing";
import type { Db } from "@services/shared/db";
import type { User } from "@services/shared/generated/prisma/client";
import { testDb } from "@services/shared/testing/db";
import type { Browser, Page } from "playwright-core";
import { launchBrowser } from "./browser";
import { openPortal, type PortalOptions, type PortalPage, signInThroughApi } from "./portal";
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
  let isolated: { db: Db; drop(): Promise<void> } | undefined;
  let portals: PortalPage[] = [];

  beforeAll(async () => {
    // a database of the file's own, for tests that run workers claiming every row of a kind
    isolated = options.isolatedDatabase ? await isolatedDb() : undefined;
    db = isolated?.db ?? (await testDb());
    server = await startTestServer(env, { db, probes: options.probes });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await isolated?.drop();
  });
  afterEach(async () => {
    const opened = portals;
    portals = [];
    // what the pages reported during the test, before closing them aborts anything still loading
    const reported = opened.map((p) => [...p.problems.messages]);
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
  return {
    server: () => ready(server, "the server"),
    db: () => ready(db, "the database"),
    open,
    async signedIn(user, path, options = {}) {
      const portal = await open([], options);
      const url = ready(server, "the server").url;
      await signInThroughApi(portal.page, ready(server, "the server"), user.username);
      await portal.page.goto(`${url}${path}`);
      return portal.page;
    },
  };
}
