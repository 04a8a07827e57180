import { createAdmin } from "@services/shared/testing/factories";
import type { Page } from "playwright-core";
import { requestsDone } from "./support/browser";
import { signInThroughForm } from "./support/portal";
import { browserSuite, visit } from "./support/suite";

// The web app under its Content Security Policy in Chromium (issue 20 §3): no inline script and no
// inline style are allowed, and the main pages, signed out and as a mainAdmin, cause no violation of
// it, not even one a library provokes and catches (zod's eval probe). An email's preview frame
// shows the email's own inline styles under the frame page's policy (gateway/src/http/emailFrame.ts).

const suite = browserSuite();

/**
 * Every CSP violation Chromium reports for `page` and its frames (DevTools' issues: nothing is
 * injected into the page), until `stop()`.
 */
async function recordViolations(page: Page): Promise<{ violations: string[]; stop(): Promise<void> }> {
  const violations: string[] = [];
  const cdp = await page.context().newCDPSession(page);
  cdp.on("Audits.issueAdded", ({ issue }) => {
    if (issue.code !== "ContentSecurityPolicyIssue") return;
    const details = issue.details.contentSecurityPolicyIssueDetails;
    violations.push(
      `${details?.violatedDirective} ${details?.contentSecurityPolicyViolationType} ${details?.blockedURL ?? ""} ` +
        `${details?.sourceCodeLocation?.url ?? ""} on ${page.url()}`,
    );
  });
  await cdp.send("Audits.enable");
  return { violations, stop: () => cdp.detach() };
}

/**
 * Opens `path` inside the running app, as its links do, and waits for its heading and for every
 * request it made. The app was loaded once, at sign-in: a reload per page only repeated the same
 * document and bundle; each page's own chunks, styles and requests still load under the policy.
 */
async function open(page: Page, path: string): Promise<void> {
  await visit(page, path);
  await page.getByRole("heading", { level: 1 }).first().waitFor();
  await requestsDone(page);
}

const ADMIN_PAGES = [
  "/dashboard",
  "/admin",
  "/admin/user-management",
  "/admin/security",
  "/admin/branding",
  "/admin/storage",
  "/admin/testing",
  "/admin/documentation",
  "/admin/appointments",
  "/admin/esrt-communication",
  "/admin/email-settings",
  "/admin/email-testing",
  "/documents",
  "/appointments",
  "/two-factor",
];

describe("the Content Security Policy in Chromium", () => {
  it("allows no inline style, and the main pages and an email preview break none of it", async () => {
    const admin = await createAdmin(suite.db());
    const { page } = await suite.open();
    const { violations, stop } = await recordViolations(page);
    const url = suite.server().url;

    const first = await page.goto(`${url}/auth`);
    const csp = (await first?.allHeaders())?.["content-security-policy"] ?? "";
    expect(csp).toMatch(/(^|;)style-src 'self'(;|$)/);
    expect(csp).not.toContain("unsafe-inline");
    // the login form's validation (zod) loads and runs on the way in
    await signInThroughForm(page, suite.server(), admin.username);
    await requestsDone(page);
    for (const path of ADMIN_PAGES) await open(page, path);

    // an email's inline styles (attribute and element) show in its preview frame
    await open(page, "/admin/email-templates");
    await page.getByRole("button", { name: "Email verification" }).click();
    const form = page.getByRole("form", { name: "Edit the Email verification template" });
    await form
      .getByLabel("HTML body")
      .fill(
        '<div style="color: rgb(28, 33, 39); font-family: Arial"><p class="x">Hello {{firstName}}</p></div>' +
          "<style>.x { font-size: 21px }</style>",
      );
    const frame = page.frameLocator('iframe[title="HTML preview"]');
    const paragraph = frame.getByText("Hello Maria");
    await paragraph.waitFor();
    // the preview frame is made anew when the preview renders again: one replaced while it is read
    // is read again (the locator finds the new one)
    const styled = () =>
      paragraph
        .evaluate((p) => {
          const style = p.ownerDocument.defaultView?.getComputedStyle(p);
          return `${style?.color} ${style?.fontFamily} ${style?.fontSize}`;
        })
        .catch((err: unknown) => {
          if (err instanceof Error && /detached/i.test(err.message)) return "";
          throw err;
        });
    // applied as the frame loads: at once, or within a few frames
    const deadline = Date.now() + 5000;
    while ((await styled()) !== "rgb(28, 33, 39) Arial 21px" && Date.now() < deadline) {
      await page.waitForTimeout(50);
    }
    expect(await styled()).toBe("rgb(28, 33, 39) Arial 21px");

    await stop();
    expect(violations).toEqual([]);
  }, 90_000);

  it("shows the REST API's reference page, served by the portal, breaking none of its policy", async () => {
    const { page } = await suite.open();
    const { violations, stop } = await recordViolations(page);
    const url = suite.server().url;
    const elsewhere: string[] = [];
    page.on("request", (req) => {
      if (!req.url().startsWith(url) && !req.url().startsWith("data:")) elsewhere.push(req.url());
    });

    await page.goto(`${url}/api/docs`);
    await page.getByRole("heading", { name: /Client portal REST API/ }).waitFor();
    await page.locator(".opblock", { hasText: "/api/esrt/ack" }).first().waitFor();
    // an operation opens with its parameters and its answers, an example error body among them
    const operation = page.locator(".opblock", { hasText: "/api/users/by-uniqueid/{uniqueId}" });
    await operation.locator(".opblock-summary-control").click();
    await operation.getByText("uniqueId").first().waitFor();
    await operation.getByText("No user has this unique id").waitFor();
    await operation.getByText('"message": "string"').first().waitFor();
    await requestsDone(page);

    await stop();
    expect(violations).toEqual([]);
    expect(elsewhere).toEqual([]);
  }, 60_000);
});
