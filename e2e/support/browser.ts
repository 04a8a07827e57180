import { existsSync, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  type Browser,
  type ConsoleMessage,
  chromium,
  type Download,
  type Page,
  type Request,
} from "playwright-core";

/** Where Debian's Chromium lives unless CHROMIUM_PATH says otherwise. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** How the tests launch Chromium: headless, no sandbox (tests run as root in CI). */
export const LAUNCH_OPTIONS = {
  executablePath: CHROMIUM_PATH,
  headless: true,
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
};

/** Set by scripts/jest/globalSetup.ts when the run shares one Chromium between its browser test files. */
export const SHARED_BROWSER_ENV = "TEST_BROWSER_WS_ENDPOINT";

/**
 * The browser a test file drives: the run's shared Chromium (started once by Jest's globalSetup;
 * each file connects, and its close() drops only the contexts it made), else a Chromium of its own.
 * Every test opens its own context, so nothing (cookies, storage) passes between tests either way.
 * @throws Error naming the install command when Chromium is missing.
 */
export async function launchBrowser(): Promise<Browser> {
  const shared = process.env[SHARED_BROWSER_ENV];
  if (shared) return chromium.connect(shared);
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}: run \`make ci-env\` (apt-get install -y chromium) or set CHROMIUM_PATH`,
    );
  }
  return chromium.launch(LAUNCH_OPTIONS);
}

/**
 * Where a finished download's bytes are on this machine: a copy in the run's data directory, made
 * with saveAs() (a browser reached over a connection, as the shared one is, has no local path()).
 */
export async function downloadedFile(download: Download): Promise<string> {
  const dir = mkdtempSync(path.join(process.env.DATA_DIR ?? tmpdir(), "download-"));
  const file = path.join(dir, "download");
  await download.saveAs(file);
  return file;
}

/** Where the browser tests leave the screenshots a person looks at (test-results/ at the top). */
export const SCREENSHOTS = path.resolve(__dirname, "../../test-results");

/** Saves a screenshot of `page` as test-results/`name`, of the whole page when `fullPage`. */
export async function saveScreenshot(page: Page, name: string, fullPage = false): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, name), fullPage });
}

/** Problems a page reported while a test drove it: console errors and uncaught exceptions. */
export interface PageProblems {
  readonly messages: string[];
}

/**
 * Reports that are not problems: the browser logs every non-OK response, and GET /api/user answers
 * 401 to a signed-out visitor (spec §4: no user); an API call (REST or GraphQL) still running when the test navigates
 * away is aborted by the browser, as are the favicon request, the top bar's logo (the branding's
 * /logo.svg) and the lazy page chunks of a page left while loading (a chunk that really fails to
 * load shows as a console error or a page exception), and the empty page an email preview's frame
 * loads when the preview gives way (to a template's problems, say) before it finished loading.
 */
export const EXPECTED_PROBLEMS: readonly RegExp[] = [
  /^console: Failed to load resource: .* 401 .*\/api\/user\)$/,
  /^request failed: \S+\/api\/\S+ net::ERR_ABORTED$/,
  /^request failed: \S+\/graphql net::ERR_ABORTED$/,
  /^request failed: \S+\/favicon\.svg net::ERR_ABORTED$/,
  /^request failed: \S+\/logo\.svg net::ERR_ABORTED$/,
  /^request failed: \S+\/assets\/[\w.-]+\.(js|css) net::ERR_ABORTED$/,
  /^request failed: \S+\/email-frame net::ERR_ABORTED$/,
];

/**
 * Records every console error (CSP violations and failed loads show there) and every uncaught page
 * exception of `page`, so a test can assert that none happened. Messages matching `expected` (plus
 * {@link EXPECTED_PROBLEMS}) are not recorded: a test names the failures it provokes.
 */
export function recordPageProblems(page: Page, expected: readonly RegExp[] = []): PageProblems {
  const messages: string[] = [];
  const allowed = [...EXPECTED_PROBLEMS, ...expected];
  const record = (message: string) => {
    if (!allowed.some((pattern) => pattern.test(message))) messages.push(message);
  };
  page.on("console", (msg: ConsoleMessage) => {
    if (msg.type() === "error") record(`console: ${msg.text()} (${msg.location().url})`);
  });
  page.on("pageerror", (err: Error) => record(`exception: ${err.message}`));
  page.on("requestfailed", (req) => record(`request failed: ${req.url()} ${req.failure()?.errorText ?? ""}`));
  return { messages };
}

/** The animations a page runs, as {@link animationsSettled} reads them (this code is type-checked without the DOM's types). */
interface AnimatedDocument {
  getAnimations(): Array<{ playState: string; effect: { getTiming(): { iterations?: number } } | null }>;
}

/**
 * Resolves once `page` runs no finite animation (a fade, a popover or menu opening or closing); a
 * spinner's endless one may go on. What a person waits for before reading or clicking what just
 * opened. A function, not a string: Playwright polls a string with eval, which the app's CSP refuses.
 */
export async function animationsSettled(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    (globalThis as unknown as { document: AnimatedDocument }).document
      .getAnimations()
      .every((a) => a.playState !== "running" || a.effect?.getTiming().iterations === Infinity),
  );
}

const inFlight = new WeakMap<Page, Set<Request>>();

/** Counts the requests `page` has in flight, for {@link requestsDone}; call once as the page opens. */
export function trackRequests(page: Page): void {
  const pending = new Set<Request>();
  inFlight.set(page, pending);
  page.on("request", (req) => pending.add(req));
  page.on("requestfinished", (req) => pending.delete(req));
  page.on("requestfailed", (req) => pending.delete(req));
}

/**
 * Resolves once `page` has no request in flight: at once when it has none (unlike Playwright's
 * "networkidle", which always waits half a second of quiet). A page opened without
 * {@link trackRequests} falls back to "networkidle".
 * @throws when requests are still in flight after `timeoutMs`.
 */
export async function requestsDone(page: Page, timeoutMs = 15_000): Promise<void> {
  const pending = inFlight.get(page);
  if (!pending) return page.waitForLoadState("networkidle");
  const deadline = Date.now() + timeoutMs;
  while (pending.size > 0) {
    if (Date.now() > deadline) {
      throw new Error(`requests still in flight: ${[...pending].map((r) => r.url()).join(", ")}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
