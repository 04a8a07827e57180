import type { Browser, Page, Request } from "playwright-core";

/** The goal: at most this much compressed JavaScript before /auth is usable (170 KB). */
export const FIRST_PAGE_JS_GOAL_BYTES = 170 * 1024;

/** What one page load fetched, as the browser counted it. */
export interface PageWeight {
  /** transferred (encoded) bytes of JavaScript response bodies */
  jsBytes: number;
  /** decoded bytes of the same JavaScript */
  jsRawBytes: number;
  jsFiles: number;
  /** transferred (encoded) bytes of CSS response bodies */
  cssBytes: number;
  cssRawBytes: number;
  cssFiles: number;
  /** transferred bytes of every other response body (HTML, JSON, fonts, images) */
  otherBytes: number;
  /** every request the page made until it was usable and the network was idle */
  requests: number;
  /** whether the network went idle (no request for 500 ms) within the wait */
  networkIdle: boolean;
  /** requests whose answer had not been received in full by then (a body nobody read, say) */
  unfinished: string[];
  /** path and encoded size of each script and stylesheet, largest first */
  files: Array<{ path: string; bytes: number; rawBytes: number; encoding: string }>;
}

/** How to load and judge one page. */
export interface PageWeightOptions {
  /** absolute URL of the page */
  url: string;
  /** resolves once the page is usable (a form or heading is visible) */
  usable(page: Page): Promise<void>;
  /**
   * What the browser says it accepts: its own default (Chromium: gzip, deflate, br, zstd), gzip
   * alone, or `identity`, so the server answers uncompressed
   */
  encoding: "browser" | "gzip" | "identity";
  /** runs in the fresh context before the page loads (sign in, say) */
  prepare?(page: Page): Promise<void>;
  /** how long to wait for the network to go idle; default 15 s */
  idleTimeoutMs?: number;
}

interface Seen {
  request: Request;
  kind: "js" | "css" | "other";
}

function kindOf(request: Request): Seen["kind"] {
  const type = request.resourceType();
  const path = new URL(request.url()).pathname;
  if (type === "script" || path.endsWith(".js")) return "js";
  if (type === "stylesheet" || path.endsWith(".css")) return "css";
  return "other";
}

/**
 * Loads `url` in a new browser context (1280×800) and sums what the page fetched until it is
 * usable and the network is idle: encoded and decoded bytes of scripts and stylesheets, the other
 * bytes and the request count. The context is closed afterwards.
 * @throws when the page never becomes usable.
 */
export async function measurePageWeight(browser: Browser, options: PageWeightOptions): Promise<PageWeight> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    extraHTTPHeaders: options.encoding === "browser" ? {} : { "Accept-Encoding": options.encoding },
  });
  try {
    const page = await context.newPage();
    if (options.prepare) await options.prepare(page);
    const seen: Seen[] = [];
    const finished = new Set<Request>();
    page.on("request", (request) => seen.push({ request, kind: kindOf(request) }));
    page.on("requestfinished", (request) => finished.add(request));
    page.on("requestfailed", (request) => finished.add(request));
    await page.goto(options.url);
    await options.usable(page);
    const networkIdle = await page
      .waitForLoadState("networkidle", { timeout: options.idleTimeoutMs ?? 15_000 })
      .then(() => true)
      .catch(() => false);

    const weight: PageWeight = {
      jsBytes: 0,
      jsRawBytes: 0,
      jsFiles: 0,
      cssBytes: 0,
      cssRawBytes: 0,
      cssFiles: 0,
      otherBytes: 0,
      requests: seen.length,
      networkIdle,
      unfinished: [],
      files: [],
    };
    for (const { request, kind } of seen) {
      if (!finished.has(request)) {
        weight.unfinished.push(`${request.method()} ${new URL(request.url()).pathname}`);
        continue;
      }
      const response = await request.response();
      if (!response) continue;
      const sizes = await request.sizes().catch(() => null);
      const bytes = sizes?.responseBodySize ?? 0;
      if (kind === "other") {
        weight.otherBytes += bytes;
        continue;
      }
      const rawBytes = await response
        .body()
        .then((body) => body.length)
        .catch(() => 0);
      const encoding = (await response.headerValue("content-encoding")) ?? "identity";
      weight.files.push({ path: new URL(request.url()).pathname, bytes, rawBytes, encoding });
      if (kind === "js") {
        weight.jsBytes += bytes;
        weight.jsRawBytes += rawBytes;
        weight.jsFiles += 1;
      } else {
        weight.cssBytes += bytes;
        weight.cssRawBytes += rawBytes;
        weight.cssFiles += 1;
      }
    }
    weight.files.sort((a, b) => b.bytes - a.bytes);
    return weight;
  } finally {
    await context.close();
  }
}
