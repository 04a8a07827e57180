import { createUser } from "@services/shared/testing/factories";
import type { Page } from "playwright-core";
import { type PageProblems, saveScreenshot } from "./support/browser";
import { signInThroughApi } from "./support/portal";
import { browserSuite } from "./support/suite";

const PRO_APP_URL = "https://pro.e2e-shell.example";

const suite = browserSuite({ PRO_APP_URL });
let page: Page;
let problems: PageProblems;

beforeEach(async () => {
  ({ page, problems } = await suite.open());
});

describe("the web shell", () => {
  it("shows the top bar, the footer and the server's Pro app address on the home page", async () => {
    await page.goto(`${suite.server().url}/`);

    await expect(
      page.getByText("Receivable Services & Consulting", { exact: true }).isVisible(),
    ).resolves.toBe(true);
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link").allInnerTexts()).resolves.toEqual([
      "Pro App Features",
      "Login / Register",
    ]);
    await expect(page.getByRole("link", { name: "ESRT", exact: true }).getAttribute("href")).resolves.toBe(
      "/",
    );

    // The default config shows first; the GraphQL serverConfig answer replaces it.
    const proLink = page.locator(`a[href="${PRO_APP_URL}"]`);
    await proLink.waitFor();
    await expect(proLink.textContent()).resolves.toBe("Open ESRT Pro");

    await saveScreenshot(page, "shell-home.png", true);
    expect(problems.messages).toEqual([]);
  });

  it("loads a lazy page through a top-bar link without reloading the app", async () => {
    // /pro-app-features needs a signed-in user (spec §2 route table).
    const user = await createUser(suite.db(), { userType: "client" });
    await signInThroughApi(page, suite.server(), user.username);
    await page.goto(`${suite.server().url}/`);
    await page.getByRole("heading", { name: "Client portal" }).waitFor();
    await page.evaluate(() => {
      (globalThis as unknown as { shellMarker: string }).shellMarker = "still here";
    });
    const chunk = page.waitForRequest((req) => /\/assets\/ProAppFeatures-[^/]+\.js$/.test(req.url()));

    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Pro App Features" })
      .click();

    await chunk;
    await page.getByRole("heading", { level: 1, name: "Pro App Features" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/pro-app-features");
    await expect(
      page.evaluate(() => (globalThis as unknown as { shellMarker?: string }).shellMarker),
    ).resolves.toBe("still here");
    await page.getByRole("heading", { level: 2, name: "What ESRT Pro does" }).waitFor();
    expect(problems.messages).toEqual([]);
  });

  it("answers an unknown path with the not-found page", async () => {
    const res = await page.goto(`${suite.server().url}/no-such-page`);
    expect(res?.status()).toBe(200);

    await page.getByRole("heading", { level: 1, name: "404 Page Not Found" }).waitFor();
    await expect(page.getByText("Did you forget to add the page to the router?").isVisible()).resolves.toBe(
      true,
    );
    await expect(
      page.getByText("Receivable Services & Consulting", { exact: true }).isVisible(),
    ).resolves.toBe(true);
    await saveScreenshot(page, "shell-404.png");
    expect(problems.messages).toEqual([]);
  });

  it("lets the brand title take the user back home", async () => {
    await page.goto(`${suite.server().url}/no-such-page`);
    await page.getByRole("heading", { name: "404 Page Not Found" }).waitFor();
    await page.getByRole("link", { name: "ESRT", exact: true }).click();
    await page.getByRole("heading", { level: 1, name: "Client portal" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/");
    expect(problems.messages).toEqual([]);
  });
});
