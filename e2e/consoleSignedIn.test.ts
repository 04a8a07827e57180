import type { User } from "@services/shared/generated/prisma/client";
import { createAdmin, createUser } from "@services/shared/testing/factories";
import type { Page } from "playwright-core";
import { type PageProblems, saveScreenshot } from "./support/browser";
import { signInThroughApi } from "./support/portal";
import { browserSuite } from "./support/suite";

// The signed-in user console on /dashboard (spec §2): welcome overlay, details, QR code, the one
// by-uniqueid lookup, notes saved through the server, and the prospect landing page.

const PRO_APP_URL = "https://pro.e2e-console-signed-in.example";

const suite = browserSuite({ PRO_APP_URL });
let page: Page;
let problems: PageProblems;

/** Signs `user` in (POST /api/login, sharing the page's cookies), then opens `path`. */
async function signInAndOpen(user: User, path: string): Promise<void> {
  await signInThroughApi(page, suite.server(), user.username);
  await page.goto(`${suite.server().url}${path}`);
}

beforeEach(async () => {
  // the notes test makes the server fail on purpose
  ({ page, problems } = await suite.open([/status of 503 .*\/api\/user\/notes\)$/]));
});

describe("the user console on /dashboard", () => {
  it("sends a signed-out visitor to /auth", async () => {
    await page.goto(`${suite.server().url}/dashboard`);
    await page.waitForURL(`${suite.server().url}/auth`);
    await expect(page.getByRole("tab", { name: "Welcome" }).count()).resolves.toBe(0);
  });

  it("greets a client with the overlay for 8 seconds, then shows their console and looks them up once", async () => {
    const user = await createUser(suite.db(), {
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

    await saveScreenshot(page, "console-welcome-overlay.png");
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
    expect(problems.messages).toEqual([]);
  });

  it("shows the synced badge to a synced user", async () => {
    const user = await createUser(suite.db(), { userType: "client", esrtSynced: true });
    await signInAndOpen(user, "/dashboard");
    await page.getByText("Synced with ESRT Pro", { exact: true }).waitFor();
    expect(problems.messages).toEqual([]);
  });

  it("shows no welcome overlay to an admin", async () => {
    const admin = await createAdmin(suite.db(), { firstName: "Ada" });
    await signInAndOpen(admin, "/dashboard");
    await page.getByRole("heading", { name: "Welcome, Ada!" }).waitFor();
    await expect(page.getByRole("dialog").count()).resolves.toBe(0);
    expect(problems.messages).toEqual([]);
  });

  it("saves notes through the server with 'Notes Updated', and says 'Update Failed' when saving fails", async () => {
    const user = await createUser(suite.db(), { userType: "client", notes: "Earlier note" });
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
    const saved = await suite.db().prisma.user.findUniqueOrThrow({ where: { id: user.id } });
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
    const unchanged = await suite.db().prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(unchanged.notes).toBe("Please review the March statements before our call");
  });
});

describe("the prospect landing page", () => {
  it("tells a prospect how to get client access and leads back to the dashboard", async () => {
    const prospect = await createUser(suite.db(), { userType: "prospect", firstName: "Pat" });
    await signInAndOpen(prospect, "/prospect-landing");
    await page.getByRole("heading", { level: 1, name: "Client access required" }).waitFor();
    await expect(page.getByRole("heading", { name: "How to get client access" }).isVisible()).resolves.toBe(
      true,
    );
    await expect(page.getByRole("button", { name: "Email the team" }).getAttribute("href")).resolves.toMatch(
      /^mailto:consultations@portal\.localhost/,
    );

    await page.getByRole("link", { name: "Back to Dashboard" }).click();
    await page.waitForURL(`${suite.server().url}/dashboard`);
    await page.getByRole("tabpanel").getByRole("heading", { name: "Welcome, Pat!" }).waitFor();
    expect(problems.messages).toEqual([]);
  });
});
