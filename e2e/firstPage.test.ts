import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";
import { FIRST_PAGE_JS_GOAL_BYTES, measurePageWeight } from "./support/pageWeight";
import { WEB_DIST } from "./support/server";
import { browserSuite } from "./support/suite";

// The first page is light and compressed (issue "A light first page", benchmark P6): /auth arrives
// with its scripts and stylesheet as brotli, at most 170 KB of JavaScript, and the page goes
// network-idle with every request finished (the 401 of GET /api/user included).

const suite = browserSuite();

async function browser(): Promise<Browser> {
  const { page } = await suite.open();
  const found = page.context().browser();
  if (!found) throw new Error("the page has no browser");
  return found;
}

describe("the first page", () => {
  it("loads /auth with at most 170 KB of brotli JavaScript and finishes every request", async () => {
    const weight = await measurePageWeight(await browser(), {
      url: `${suite.server().url}/auth`,
      usable: (page) => page.getByRole("form", { name: "Login" }).waitFor(),
      encoding: "browser",
    });
    expect(weight.unfinished).toEqual([]);
    expect(weight.networkIdle).toBe(true);
    expect(weight.jsBytes).toBeLessThanOrEqual(FIRST_PAGE_JS_GOAL_BYTES);
    expect(weight.jsBytes).toBeGreaterThan(0);
    const large = weight.files.filter((file) => file.rawBytes >= 1024);
    expect(large.length).toBeGreaterThan(0);
    expect(large.filter((file) => file.encoding !== "br")).toEqual([]);
    // no icon path loader (an icon asked for by name), no booking form or GraphQL client, no pdf.js
    const names = weight.files.map((file) => file.path);
    expect(names.filter((name) => /paths|AppointmentsTab|MyAppointmentsList|pdf/.test(name))).toEqual([]);
  });

  it("sends the same files uncompressed to a browser that asks for no compression", async () => {
    const weight = await measurePageWeight(await browser(), {
      url: `${suite.server().url}/auth`,
      usable: (page) => page.getByRole("form", { name: "Login" }).waitFor(),
      encoding: "identity",
    });
    expect(weight.files.filter((file) => file.encoding !== "identity")).toEqual([]);
    expect(weight.jsBytes).toBe(weight.jsRawBytes);
    expect(weight.jsBytes).toBeGreaterThan(FIRST_PAGE_JS_GOAL_BYTES);
  });
});

describe("the build", () => {
  it("has brotli and gzip copies of every script and stylesheet of 1 KB or more, and no icon font", () => {
    const assets = path.join(WEB_DIST, "assets");
    const files = new Set(readdirSync(assets));
    const missing: string[] = [];
    for (const name of files) {
      if (!/\.(js|css)$/.test(name) || statSync(path.join(assets, name)).size < 1024) continue;
      for (const copy of [`${name}.br`, `${name}.gz`]) if (!files.has(copy)) missing.push(copy);
    }
    expect(missing).toEqual([]);
    expect([...files].filter((name) => /\.(ttf|eot|woff2?)$|blueprint-icons/.test(name))).toEqual([]);
  });

  it("writes no source map, nor a reference to one (production serves none)", () => {
    const all = readdirSync(WEB_DIST, { recursive: true, encoding: "utf8" });
    expect(all.filter((name) => /\.map(\.(br|gz))?$/.test(name))).toEqual([]);
    const scripts = all.filter((name) => name.endsWith(".js"));
    expect(scripts.length).toBeGreaterThan(0);
    const referencing = scripts.filter((name) =>
      readFileSync(path.join(WEB_DIST, name), "utf8").includes("//# sourceMappingURL="),
    );
    expect(referencing).toEqual([]);
  });
});
