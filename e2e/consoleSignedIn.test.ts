import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Db } from "@services/shared/db";
import type { User } from "@services/shared/generated/prisma/client";
import { testDb } from "@services/shared/testing/db";
import { createAdmin, createUser, TEST_PASSWORD } from "@services/shared/testing/factories";
import type { Browser, Page } from "playwright-core";
import { launchBrowser, type PageProblems, recordPageProblems } from "./support/browser";
import { startTestServer, type TestServer } from "./support/server";

// The signed-in user console on /dashboard (spec §2): welcome overlay, details, QR code, the one
// by-uniqueid lookup, notes saved through the server, and the prospect landing page.

const PRO_APP_URL = "https://pro.e2e-console-signed-in.example";
const SCREENSHOTS = path.resolve(__dirname, "../test-results");

let server: TestServer;
let browser: Browser;
let db: Db;
let page: Page;
let problems: PageProblems;

/** The page's problems, less the signed-out check of the first page load (GET /api/user, 401). */
function pageProblems(): string[] {
  return problems.messages.filter((m) => !/status of 401 .*\/api\/user\)$/.test(m));
}

/** Signs `user` in through the page's own fetch, as the login form does, then opens `path`. */
async function signInAndOpen(user: User, path: string): Promise<void> {
  // A same-origin page that runs no app code, so nothing is cut off when the test navigates on.
  await page.goto(`${server.url}/healthz`);
  const status = await page.evaluate(
    async ({ login, password }) => {
      const res = await fetch("/api/login", {
        method: "POST",
        credentials: "include",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ login, password }),
      });
      await res.text();
      return res.status;
    },
    { login: user.username, password: TEST_PASSWORD },
  );
  expect(status).toBe(200);
  await page.goto(`${server.url}${path}`);
}

beforeAll(async () => {
  server = await startTestServer({ PRO_APP_URL });
  browser = await launchBrowser();
  db = await testDb();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

beforeEach(async () => {
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.setDefaultTimeout(15_000);
  problems = recordPageProblems(page);
});

afterEach(async () => {
  await page.close();
});

describe("the user console on /dashboard", () => {
  it("sends a signed-out visitor to /auth", async () => {
    await page.goto(`${server.url}/dashboard`);
    await page.waitForURL(`${server.url}/auth`);
    await expect(page.getByRole("tab", { name: "Welcome" }).count()).resolves.toBe(0);
  });

  it("greets a client with the overlay for 8 seconds, then shows their console and looks them up once", async () => {
    const user = await createUser(db, {
      userType: "client",
      firstName: "Grace",
      lastName: "Hopper",
      companyName: "Hopper Receivables",
      phone: "+1 555 010 0142",
    });
    const lookups: string[] = [];
    page.on("response", (res) => {
      if (new URL(res.url()).pathname.startsWith("/api/users/by-uniqueid/")) {
        lookups.push(`${res.status()} ${new URL(res.url()).pathname}`);
      }
    });
    await page.clock.install();
    await signInAndOpen(user, "/dashboard");

    const overlay = page.getByRole("dialog", { name: "Welcome to the Client FAQ Portal" });
    await overlay.waitFor();
    await expect(
      overlay
        .getByText("you can submit documents, access reports and update correspondence", { exact: false })
        .isVisible(),
    ).resolves.toBe(true);
    await expect(overlay.getByText("save your credentials", { exact: false }).isVisible()).resolves.toBe(
      true,
    );

    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOTS, "console-welcome-overlay.png") });
    await page.clock.runFor(7900);
    await expect(overlay.isVisible()).resolves.toBe(true);
    await page.clock.runFor(200);
    await expect(
      overlay.evaluate((el) => el.classList.contains("console-welcome-overlay-fading")),
    ).resolves.toBe(true);
    await page.clock.runFor(500);
    await overlay.waitFor({ state: "detached" });

    await page.getByRole("heading", { name: "Welcome, Grace!" }).waitFor();
    const details = page.getByRole("table", { name: "Your details" });
    await expect(details.locator("tr").allInnerTexts()).resolves.toEqual([
      `UserID\t${user.uniqueId}`,
      "Name\tGrace Hopper",
      "Company\tHopper Receivables",
      `Email\t${user.email}`,
      "Phone\t+1 555 010 0142",
    ]);
    // Not synced yet: no badge.
    await expect(page.getByText("Synced with ESRT Pro").count()).resolves.toBe(0);

    const link = `${PRO_APP_URL}/user/${user.uniqueId}`;
    const qr = page.getByRole("img", { name: `QR code linking to ${link}` });
    await qr.waitFor();
    await expect(qr.getAttribute("src")).resolves.toMatch(/^data:image\/png;base64,/);
    await expect(page.getByRole("button", { name: "Launch ESRT Pro" }).getAttribute("href")).resolves.toBe(
      link,
    );

    await page.getByRole("tab", { name: "Appointments" }).click();
    await page.getByRole("form", { name: "Schedule an appointment" }).waitFor();
    await page.getByRole("heading", { name: "Why schedule a consultation?" }).waitFor();

    expect(lookups).toEqual([`200 /api/users/by-uniqueid/${user.uniqueId}`]);
    expect(pageProblems()).toEqual([]);
  });

  it("shows the synced badge to a synced user", async () => {
    const user = await createUser(db, { userType: "client", esrtSynced: true });
    await signInAndOpen(user, "/dashboard");
    await page.getByText("Synced with ESRT Pro", { exact: true }).waitFor();
    expect(pageProblems()).toEqual([]);
  });

  it("shows no welcome overlay to an admin", async () => {
    const admin = await createAdmin(db, { firstName: "Ada" });
    await signInAndOpen(admin, "/dashboard");
    await page.getByRole("heading", { name: "Welcome, Ada!" }).waitFor();
    await expect(page.getByRole("dialog").count()).resolves.toBe(0);
    expect(pageProblems()).toEqual([]);
  });

  it("saves notes through the server with 'Notes Updated', and says 'Update Failed' when saving fails", async () => {
    const user = await createUser(db, { userType: "client", notes: "Earlier note" });
    await signInAndOpen(user, "/dashboard");
    await page.getByRole("button", { name: "Continue to my console" }).click();
    await page.getByRole("tab", { name: "Notes" }).click();

    const notes = page.getByLabel("Your notes");
    await expect(notes.inputValue()).resolves.toBe("Earlier note");
    await page.getByText("2 / 250 words").waitFor();

    await notes.fill("Please review the March statements before our call");
    await page.getByText("8 / 250 words").waitFor();
    await page.getByRole("button", { name: "Submit Notes" }).click();
    const toast = page.locator(".portal-toast");
    await toast.getByText("Notes Updated", { exact: true }).waitFor();
    await expect(toast.getByText("Your notes have been saved successfully.").isVisible()).resolves.toBe(true);
    const saved = await db.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(saved.notes).toBe("Please review the March statements before our call");

    // A failing server: its error field is shown, else the fallback text.
    await page.route("**/api/user/notes", (route) =>
      route.fulfill({
        status: 503,
        contentType: "application/json",
        body: JSON.stringify({ message: "Service unavailable", error: "Notes are closed for maintenance" }),
      }),
    );
    await notes.fill("One more thing");
    await page.getByRole("button", { name: "Submit Notes" }).click();
    await toast.getByText("Update Failed", { exact: true }).waitFor();
    await expect(toast.getByText("Notes are closed for maintenance").isVisible()).resolves.toBe(true);
    const unchanged = await db.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(unchanged.notes).toBe("Please review the March statements before our call");
  });
});

describe("the prospect landing page", () => {
  it("tells a prospect how to get client access and leads back to the dashboard", async () => {
    const prospect = await createUser(db, { userType: "prospect", firstName: "Pat" });
    await signInAndOpen(prospect, "/prospect-landing");
    await page.getByRole("heading", { level: 1, name: "Client access required" }).waitFor();
    await expect(page.getByRole("heading", { name: "How to get client access" }).isVisible()).resolves.toBe(
      true,
    );
    await expect(page.getByRole("button", { name: "Email the team" }).getAttribute("href")).resolves.toMatch(
      /^mailto:consultations@portal\.localhost/,
    );

    await page.getByRole("link", { name: "Back to Dashboard" }).click();
    await page.waitForURL(`${server.url}/dashboard`);
    await page.getByRole("tabpanel").getByRole("heading", { name: "Welcome, Pat!" }).waitFor();
    expect(pageProblems()).toEqual([]);
  });
});
