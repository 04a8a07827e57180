import { browserSuite } from "./support/suite";

// A page's code that cannot be fetched (its hashed chunk gone after a deploy) is caught by the
// route's error boundary (web/src/ui/ErrorBoundary.tsx), which offers "Reload"; the reload fetches
// the page again.

const suite = browserSuite();

/** The not-found page's lazy chunk, as the built app names it. */
const NOT_FOUND_CHUNK = /\/assets\/NotFound-[^/]+\.js$/;

describe("the error boundary", () => {
  it("offers a reload when a page's chunk cannot be loaded, and the reload shows the page", async () => {
    const { page } = await suite.open([
      /NotFound-[^/]+\.js/,
      /Failed to fetch dynamically imported module/,
      /A new version of the portal is available/,
    ]);
    let blocked = 0;
    await page.route(NOT_FOUND_CHUNK, (route) => {
      blocked += 1;
      return route.abort();
    });

    await page.goto(`${suite.server().url}/no-such-page`);

    await page.getByRole("heading", { name: "A new version of the portal is available" }).waitFor();
    await page.getByText("The portal was updated. Reload to continue.").waitFor();
    expect(blocked).toBeGreaterThan(0);
    await expect(page.getByRole("heading", { name: "404 Page Not Found" }).count()).resolves.toBe(0);
    // the top bar outside the route's boundary still stands
    await expect(
      page.getByText("Receivable Services & Consulting", { exact: true }).isVisible(),
    ).resolves.toBe(true);

    // the deploy is over: the chunk can be fetched again
    await page.unroute(NOT_FOUND_CHUNK);
    const reloaded = page.waitForEvent("load");
    await page.getByRole("button", { name: "Reload" }).click();
    await reloaded;

    await page.getByRole("heading", { level: 1, name: "404 Page Not Found" }).waitFor();
    await expect(page.getByRole("button", { name: "Reload" }).count()).resolves.toBe(0);
  });
});
