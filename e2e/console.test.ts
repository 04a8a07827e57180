import type { Page, Request } from "playwright-core";
import { type PageProblems, saveScreenshot } from "./support/browser";
import { browserSuite } from "./support/suite";

// The public console preview (spec §2): the client console with a demo user, driven in Chromium.

const PRO_APP_URL = "https://pro.e2e-console.example";
const DEMO_LINK = `${PRO_APP_URL}/user/ESRT-DEM0USER`;

const suite = browserSuite({ PRO_APP_URL });
let page: Page;
let problems: PageProblems;
let requests: string[];

beforeEach(async () => {
  ({ page, problems } = await suite.open());
  requests = [];
  page.on("request", (req: Request) => requests.push(new URL(req.url()).pathname));
  await page.goto(`${suite.server().url}/preview-user-console`);
  await page.getByRole("heading", { level: 1, name: "Client Console Preview" }).waitFor();
});

describe("the console preview", () => {
  it("shows the demo user, the synced badge and the Pro-app link and QR code, with no user lookups", async () => {
    await page.getByRole("heading", { name: "Welcome, Demo!" }).waitFor();
    const details = page.getByRole("table", { name: "Your details" });
    await expect(details.locator("tr").allInnerTexts()).resolves.toEqual([
      "UserID\tESRT-DEM0USER",
      "Name\tDemo User",
      "Company\tDemo Receivables Co.",
      "Email\tdemo.user@example.com",
      "Phone\t(555) 010-0199",
    ]);
    await expect(page.getByText("Synced with ESRT Pro", { exact: true }).isVisible()).resolves.toBe(true);

    // The launch button waits for the server's config, then opens {proAppUrl}/user/{uniqueId}.
    const launch = page.getByRole("button", { name: "Launch ESRT Pro" });
    await page.locator(`a[href="${DEMO_LINK}"]`).first().waitFor();
    await expect(launch.getAttribute("href")).resolves.toBe(DEMO_LINK);
    await expect(launch.getAttribute("target")).resolves.toBe("_blank");

    const qr = page.getByRole("img", { name: `QR code linking to ${DEMO_LINK}` });
    await qr.waitFor();
    await expect(qr.getAttribute("src")).resolves.toMatch(/^data:image\/png;base64,/);
    const box = await qr.boundingBox();
    expect([box?.width, box?.height]).toEqual([128, 128]);
    await expect(qr.locator("xpath=..").getAttribute("href")).resolves.toBe(DEMO_LINK);

    await saveScreenshot(page, "console-preview.png", true);

    // No welcome overlay in the preview, and nothing asked about the demo user.
    await expect(page.getByRole("dialog").count()).resolves.toBe(0);
    expect(requests.filter((p) => p.startsWith("/api/users/by-uniqueid"))).toEqual([]);
    expect(problems.messages).toEqual([]);
  });

  it("switches to the Benefits tab: five benefits that open one at a time, five steps, the access button", async () => {
    await page.getByRole("tab", { name: "Benefits" }).click();
    const panel = page.getByRole("tabpanel");
    const items = panel.locator(".console-accordion-item > button");
    await expect(items.allInnerTexts()).resolves.toEqual([
      "Billing Management",
      "Net Terms Management",
      "Insurance Billing",
      "Pre-Write Off Collections",
      "Document Management",
    ]);
    await expect(items.nth(2).getAttribute("aria-expanded")).resolves.toBe("false");

    await items.nth(2).click();
    await page.getByText("Prepare and follow insurance claims", { exact: false }).waitFor();
    await expect(items.nth(2).getAttribute("aria-expanded")).resolves.toBe("true");

    await items.nth(0).click();
    await page.getByText("Create, send and track invoices", { exact: false }).waitFor();
    await expect(items.nth(2).getAttribute("aria-expanded")).resolves.toBe("false");

    await expect(panel.locator("ol > li").count()).resolves.toBe(5);
    await expect(page.getByRole("button", { name: "Access ESRT Pro" }).getAttribute("href")).resolves.toBe(
      DEMO_LINK,
    );
    expect(problems.messages).toEqual([]);
  });

  it("shows only contact information on the preview's Appointments tab", async () => {
    await page.getByRole("tab", { name: "Appointments" }).click();
    const panel = page.getByRole("tabpanel");
    await panel.getByRole("heading", { name: "Book a consultation" }).waitFor();
    await expect(panel.getByRole("link", { name: "(555) 010-0100" }).getAttribute("href")).resolves.toBe(
      "tel:5550100100",
    );
    await expect(
      panel.getByRole("link", { name: "consultations@portal.localhost" }).getAttribute("href"),
    ).resolves.toBe("mailto:consultations@portal.localhost");
    await expect(panel.getByText("Business hours: 9AM-5PM PST").isVisible()).resolves.toBe(true);
    await expect(panel.getByText("later release", { exact: false }).count()).resolves.toBe(0);
    expect(problems.messages).toEqual([]);
  });

  it("counts words live, keeps Submit disabled while empty, clears, and refuses over 250 words", async () => {
    await page.getByRole("tab", { name: "Notes" }).click();
    const notes = page.getByLabel("Your notes");
    const submit = page.getByRole("button", { name: "Submit Notes" });
    await page.getByText("0 / 250 words").waitFor();
    await expect(submit.isDisabled()).resolves.toBe(true);

    await notes.fill("   ");
    await expect(submit.isDisabled()).resolves.toBe(true);

    await notes.fill("Please call me  after lunch");
    await page.getByText("5 / 250 words").waitFor();
    await expect(submit.isEnabled()).resolves.toBe(true);

    await page.getByRole("button", { name: "Clear" }).click();
    await page.getByText("0 / 250 words").waitFor();
    await expect(notes.inputValue()).resolves.toBe("");
    await expect(submit.isDisabled()).resolves.toBe(true);

    await notes.fill(Array(251).fill("word").join(" "));
    await page.getByText("251 / 250 words").waitFor();
    await submit.click();
    const toast = page.locator(".portal-toast");
    await toast.getByText("Notes Too Long", { exact: true }).waitFor();
    await expect(toast.getByText("Notes are limited to 250 words.").isVisible()).resolves.toBe(true);

    // Within the limit the preview says honestly that nothing is sent.
    await notes.fill("A short note");
    await submit.click();
    await toast.getByText("Preview only", { exact: true }).waitFor();
    expect(requests.filter((p) => p === "/api/user/notes")).toEqual([]);
    expect(problems.messages).toEqual([]);
  });

  it("runs the guided tour on request: four steps, previous, next, dots and close", async () => {
    await expect(page.getByRole("dialog").count()).resolves.toBe(0);
    await page.getByRole("button", { name: "Take the tour" }).click();
    const tour = page.getByRole("dialog", { name: "Welcome to the portal" });
    await tour.waitFor();
    await expect(
      tour.getByText("your gateway to our receivables consulting services", { exact: false }).isVisible(),
    ).resolves.toBe(true);
    const box = await tour.boundingBox();
    expect(box?.width).toBeLessThanOrEqual(353);
    await expect(tour.getByRole("button", { name: "Previous" }).isDisabled()).resolves.toBe(true);

    await tour.getByRole("button", { name: "Next" }).click();
    await page.getByRole("dialog", { name: "Your dashboard" }).waitFor();
    await saveScreenshot(page, "console-tour.png");

    await page.getByRole("button", { name: "Step 4 of 4" }).click();
    const last = page.getByRole("dialog", { name: "Your account" });
    await last.getByText("account settings and other options", { exact: false }).waitFor();
    await expect(
      page.getByRole("button", { name: "Step 4 of 4" }).getAttribute("aria-current"),
    ).resolves.toBe("step");

    await last.getByRole("button", { name: "Previous" }).click();
    await page
      .getByRole("dialog", { name: "Appointments" })
      .getByText("Schedule and manage consulting sessions", { exact: false })
      .waitFor();

    await page.getByRole("button", { name: "Close the tour" }).click();
    await expect(page.getByRole("dialog").count()).resolves.toBe(0);

    // Reopening starts again at the first step.
    await page.getByRole("button", { name: "Take the tour" }).click();
    await page.getByRole("dialog", { name: "Welcome to the portal" }).waitFor();
    expect(problems.messages).toEqual([]);
  });
});
