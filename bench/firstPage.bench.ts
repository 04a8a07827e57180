import { existsSync } from "node:fs";
import path from "node:path";
import { createUser } from "@services/shared/testing/factories";
import type { Page } from "playwright-core";
import { launchBrowser } from "../e2e/support/browser";
import { FIRST_PAGE_JS_GOAL_BYTES, measurePageWeight, type PageWeight } from "../e2e/support/pageWeight";
import { signInThroughApi } from "../e2e/support/portal";
import { type BenchReport, type Scenario, startInProcessGateway, teardown } from "./support";

// P6: what the first page costs a browser. Chromium loads /auth (signed out) and /dashboard (signed
// in) from the gateway serving the built app: as it is (it accepts brotli), accepting gzip only, and
// with `Accept-Encoding: identity` (the baseline: the same build and server without compression).
// Each sums the transferred bytes of scripts and stylesheets and the requests made until the page
// is usable and the network is idle.

const WEB_DIST = path.resolve(__dirname, "../web/dist");

interface Target {
  name: string;
  path: string;
  signedIn: boolean;
  usable(page: Page): Promise<void>;
}

const TARGETS: Target[] = [
  {
    name: "/auth",
    path: "/auth",
    signedIn: false,
    usable: (page) => page.getByRole("form", { name: "Login" }).waitFor(),
  },
  {
    name: "/dashboard (signed in)",
    path: "/dashboard",
    signedIn: true,
    usable: (page) => page.getByRole("tab", { name: "Welcome" }).waitFor(),
  },
];

const KB = 1024;

function metrics(weight: PageWeight): Scenario["metrics"] {
  return [
    { name: "JS", unit: "KB", value: weight.jsBytes / KB },
    { name: "JS raw", unit: "KB", value: weight.jsRawBytes / KB },
    { name: "JS files", unit: "", value: weight.jsFiles },
    { name: "CSS", unit: "KB", value: weight.cssBytes / KB },
    { name: "CSS raw", unit: "KB", value: weight.cssRawBytes / KB },
    { name: "other", unit: "KB", value: weight.otherBytes / KB },
    { name: "requests", unit: "", value: weight.requests },
    { name: "network idle", unit: "", value: weight.networkIdle ? 1 : 0 },
  ];
}

/**
 * Measures P6 against the gateway app listening on a free loopback port with a scratch database and
 * a Redis session store of its own, all removed afterwards.
 * @throws when web/dist is missing, a backing service is missing or a page never becomes usable.
 */
export async function run(): Promise<BenchReport> {
  if (!existsSync(path.join(WEB_DIST, "index.html"))) {
    throw new Error(`No web build in ${WEB_DIST}: run \`make build\` first`);
  }
  const cleanup = teardown();
  try {
    const { base, db } = await startInProcessGateway(cleanup, { webDist: WEB_DIST });
    const user = await createUser(db, { userType: "client" });

    const browser = await launchBrowser();
    cleanup.defer("close Chromium", () => browser.close());

    const scenarios: Scenario[] = [];
    let authJs = Number.NaN;
    let authGzipJs = Number.NaN;
    const unfinished: string[] = [];
    const encodings = [
      ["browser", "compressed (br)"],
      ["gzip", "gzip only"],
      ["identity", "uncompressed (baseline)"],
    ] as const;
    for (const target of TARGETS) {
      for (const [encoding, label] of encodings) {
        const weight = await measurePageWeight(browser, {
          url: `${base}${target.path}`,
          usable: target.usable,
          encoding,
          prepare: target.signedIn
            ? (page) => signInThroughApi(page, { url: base }, user.username)
            : undefined,
        });
        if (target.path === "/auth" && encoding === "browser") authJs = weight.jsBytes;
        if (target.path === "/auth" && encoding === "gzip") authGzipJs = weight.jsBytes;
        if (weight.unfinished.length > 0) {
          unfinished.push(`${target.name}: ${weight.unfinished.join(", ")} never finished`);
        }
        scenarios.push({
          name: `${target.name} ${label}`,
          metrics: metrics(weight),
        });
      }
    }
    return {
      name: "P6 first page",
      notes: [
        "Chromium (1280×800, new context each) until the page is usable and no request ran for 500 ms;",
        "KB = 1024 bytes of response bodies as transferred (encoded); raw = decoded.",
        `Goal: /auth JavaScript ≤ ${FIRST_PAGE_JS_GOAL_BYTES / KB} KB compressed; measured ${(authJs / KB).toFixed(1)} KB ` +
          `with brotli (${authJs <= FIRST_PAGE_JS_GOAL_BYTES ? "met" : "NOT met"}), ${(authGzipJs / KB).toFixed(1)} KB ` +
          `with gzip only (${authGzipJs <= FIRST_PAGE_JS_GOAL_BYTES ? "met" : "NOT met"}).`,
        "The baseline asks the same server for `Accept-Encoding: identity`.",
        ...unfinished,
      ],
      scenarios,
    };
  } finally {
    await cleanup.run();
  }
}
