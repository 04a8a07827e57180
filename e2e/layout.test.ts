import { createAdmin, createDocument, createUser } from "@services/shared/testing/factories";
import type { Page } from "playwright-core";
import { createStoredDocument, findInQueue } from "./support/documents";
import { PHONE_SCREEN, waitForToast } from "./support/portal";
import { browserSuite } from "./support/suite";

// Where the shell puts things (spec §2): toasts at the bottom right of a large screen and at the top
// of a small one, at most 420 px wide; and each route's own document title (WCAG 2.4.2).

const suite = browserSuite();

/** Shows the preview console's 'Preview only' toast (submitting notes in the preview sends nothing). */
async function showPreviewToast(page: Page): Promise<void> {
  await page.goto(`${suite.server().url}/preview-user-console`);
  await page.getByRole("tab", { name: "Notes" }).click();
  await page.getByLabel("Your notes").fill("Please call me back");
  await page.getByRole("button", { name: "Submit Notes" }).click();
  await waitForToast(page, /^Preview only/);
}

/** The visible toast's box and the screen's size. */
async function toastBox(page: Page) {
  const box = await page.locator(".portal-toaster .bp6-toast").first().boundingBox();
  if (!box) throw new Error("no toast on screen");
  const viewport = page.viewportSize();
  if (!viewport) throw new Error("no viewport");
  return { ...box, right: box.x + box.width, bottom: box.y + box.height, viewport };
}

describe("toasts", () => {
  it("sit at the bottom right of a 1280 px wide screen, at most 420 px wide", async () => {
    const { page } = await suite.open();
    await showPreviewToast(page);
    const box = await toastBox(page);
    expect(box.width).toBeLessThanOrEqual(420);
    expect(box.x).toBeGreaterThanOrEqual(box.viewport.width - 420);
    expect(box.right).toBeGreaterThan(box.viewport.width - 40);
    expect(box.bottom).toBeGreaterThan(box.viewport.height - 80);
  });

  it("sit at the top of a 375 px wide screen", async () => {
    const { page } = await suite.open([], { viewport: PHONE_SCREEN });
    await showPreviewToast(page);
    const box = await toastBox(page);
    expect(box.y).toBeLessThan(80);
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.right).toBeLessThanOrEqual(box.viewport.width);
  });
});

describe("document titles", () => {
  it("names each page in the title", async () => {
    const { page } = await suite.open();
    const titles: Record<string, string> = {};
    for (const path of ["/", "/auth", "/preview-user-console", "/no-such-page"]) {
      await page.goto(`${suite.server().url}${path}`);
      await page.locator("main h1").first().waitFor();
      await page.waitForFunction("document.title !== 'ESRT Portal'");
      titles[path] = await page.title();
    }
    expect(titles).toEqual({
      "/": "Home – ESRT Portal",
      "/auth": "Login / Register – ESRT Portal",
      "/preview-user-console": "Client Console Preview – ESRT Portal",
      "/no-such-page": "Page Not Found – ESRT Portal",
    });
  });
});

describe("the document pages on a 375 px wide screen (WCAG 1.4.10 Reflow)", () => {
  jest.setTimeout(60_000);
  const PHONE = { viewport: PHONE_SCREEN };

  /** What of the page reaches past the screen's right edge, outside a table's own scroll box. */
  const sideways = (page: Page) =>
    page.evaluate(`(() => {
      const width = document.documentElement.clientWidth;
      if (document.documentElement.scrollWidth <= width) return null;
      const wide = [...document.querySelectorAll("main *")].filter(
        (el) => el.getBoundingClientRect().right > width + 1 && !el.closest(".documents-table-scroll"),
      );
      return wide.slice(0, 3).map((el) => el.outerHTML.slice(0, 120)).join(" | ") || "the page scrolls sideways";
    })()`);

  it("lays out /documents, /admin/documentation and /admin/storage without sideways scrolling", async () => {
    const client = await createUser(suite.db(), { userType: "client" });
    await createDocument(suite.db(), {
      userId: client.id,
      title: "A rather long document title that has to wrap on a phone screen",
      status: "rejected",
      rejectionReason: "The scan is unreadable",
    });
    // the review queue opens on pending documents: one for its table, a PDF the panel draws
    const pending = await createStoredDocument(suite.db(), {
      userId: client.id,
      title: "Another long document title, still waiting for a decision by the team",
    });
    const clientPage = await suite.signedIn(client, "/documents", PHONE);
    await clientPage.getByText("The scan is unreadable").waitFor();
    await expect(sideways(clientPage)).resolves.toBeNull();

    const admin = await createAdmin(suite.db());
    const page = await suite.signedIn(admin, "/admin/documentation", PHONE);
    await page.getByRole("table", { name: "Documents" }).waitFor();
    await expect(sideways(page)).resolves.toBeNull();
    await findInQueue(page, pending.title);
    await page.getByRole("button", { name: pending.title, exact: true }).click();
    await page.getByRole("img", { name: `Page 1 of 1 of ${pending.title}` }).waitFor();
    await expect(sideways(page)).resolves.toBeNull();
    await page.goto(`${suite.server().url}/admin/storage`);
    await page.getByRole("form", { name: "Storage settings" }).waitFor();
    await page.getByText("Cloud (S3-compatible)").click();
    await page.getByLabel("Endpoint").waitFor();
    await expect(sideways(page)).resolves.toBeNull();
  });
});
