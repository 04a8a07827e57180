import { testDb } from "@services/shared/testing/db";
import { createUser } from "@services/shared/testing/factories";
import type { Page } from "playwright-core";
import { type PortalPage, signInThroughApi, waitForToast } from "./support/portal";
import { browserSuite } from "./support/suite";

// Session idle tracking (spec §4, §9) driven by Playwright's fake clock.

const suite = browserSuite();
let portal: PortalPage;

/**
 * Opens a page on Playwright's fake clock, signed in as a new client named `firstName`, on
 * /pro-app-features once the top bar welcomes them.
 */
async function idleClient(firstName: string): Promise<Page> {
  const user = await createUser(await testDb(), { userType: "client", firstName });
  portal = await suite.open();
  const { page } = portal;
  await page.clock.install();
  await signInThroughApi(page, suite.server(), user.username);
  await page.goto(`${suite.server().url}/pro-app-features`);
  await page.getByText(`Welcome, ${firstName}`, { exact: true }).waitFor();
  return page;
}

describe("session idle tracking in the browser", () => {
  it("warns after 28 idle minutes, and activity puts the warning off", async () => {
    const page = await idleClient("Idle");

    // 27 quiet minutes, then activity: no warning yet, and the timer starts again.
    await page.clock.runFor("27:00");
    await expect(page.locator(".portal-toaster .portal-toast").count()).resolves.toBe(0);
    await page.mouse.move(200, 300);
    await page.mouse.move(220, 320);
    await page.clock.runFor("27:00");
    await expect(page.locator(".portal-toaster .portal-toast").count()).resolves.toBe(0);

    // The check runs every 30 s, so the warning comes at the first check 28 minutes after the activity.
    await page.clock.runFor("01:30");
    await waitForToast(
      page,
      "Session Expiring Soon Your session will expire in 2 minutes due to inactivity.",
    );
    expect(new URL(page.url()).pathname).toBe("/pro-app-features");
    expect(portal.problems.messages).toEqual([]);
  });

  it("expires after 30 idle minutes: 'Session Expired', signed out, sent to /auth", async () => {
    const page = await idleClient("Sleepy");

    // the page ends the server session with a fire-and-forget POST /api/logout
    const loggedOut = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/logout");
    await page.clock.runFor("30:00");
    await page.waitForURL(`${suite.server().url}/auth`);
    expect((await loggedOut).status()).toBe(200);
    await waitForToast(page, "Session Expired Your session has expired. Please log in again.");
    // The server session ended too.
    const res = await page.context().request.get(`${suite.server().url}/api/user`);
    expect(res.status()).toBe(401);
    expect(portal.problems.messages).toEqual([]);
  });

  it("at 30 idle minutes asks GET /api/session-check before it signs out", async () => {
    const page = await idleClient("Checked");
    let checksSinceMark = 0;
    let checksBeforeLogout = -1;
    await page.route("**/api/session-check", async (route) => {
      checksSinceMark += 1;
      await route.continue();
    });
    await page.route("**/api/logout", async (route) => {
      if (checksBeforeLogout < 0) checksBeforeLogout = checksSinceMark;
      await route.continue();
    });

    await page.clock.runFor("29:45");
    checksSinceMark = 0;
    await page.clock.runFor("00:15");
    await page.waitForURL(`${suite.server().url}/auth`);
    await waitForToast(page, "Session Expired Your session has expired. Please log in again.");
    expect(checksBeforeLogout).toBeGreaterThanOrEqual(1);
    expect(portal.problems.messages).toEqual([]);
  });

  it("keeps the user signed in while another tab of the portal is in use", async () => {
    const page = await idleClient("Tabs");

    await page.clock.runFor("20:00");
    // Another tab records the user's activity where every tab of the portal reads it.
    await page.evaluate('localStorage.setItem("portal.lastActivityAt", String(Date.now()))');
    await page.clock.runFor("10:30");
    await expect(page.locator(".portal-toaster .portal-toast").count()).resolves.toBe(0);
    expect(new URL(page.url()).pathname).toBe("/pro-app-features");
    await page.getByText("Welcome, Tabs", { exact: true }).waitFor();

    // 28 quiet minutes after that activity (the next 30-s check), in every tab: the warning comes.
    await page.clock.runFor("18:00");
    await waitForToast(
      page,
      "Session Expiring Soon Your session will expire in 2 minutes due to inactivity.",
    );
    expect(portal.problems.messages).toEqual([]);
  });
});
