import type { Page } from "playwright-core";
import {
  createAdmin,
  createDocument,
  createUser,
  TEST_PASSWORD,
  uniqueSuffix,
} from "../services/shared/testing/factories";
import { waitForToast } from "./support/portal";
import { browserSuite } from "./support/suite";

// WCAG 2.1.1 Keyboard: a person with only a keyboard opens the Register tab of /auth, registers,
// lands on the dashboard with focus on its heading, and opens each tab of the console. The test
// only presses keys and types; it reads where focus is, and never clicks.

const suite = browserSuite();

/** What has focus: its role, its accessible text and whether it is a selected tab. */
async function focused(page: Page): Promise<{ tag: string; role: string; text: string; id: string }> {
  return (await page.evaluate(`(() => {
    const el = document.activeElement;
    return {
      tag: el ? el.tagName.toLowerCase() : "",
      role: el?.getAttribute("role") ?? "",
      text: (el?.textContent ?? "").trim(),
      id: el?.id ?? "",
    };
  })()`)) as { tag: string; role: string; text: string; id: string };
}

/**
 * Presses Tab until focus is on what `wanted` accepts.
 * @throws naming where focus went when it is not reached within `limit` presses.
 */
async function tabUntil(
  page: Page,
  wanted: (at: Awaited<ReturnType<typeof focused>>) => boolean,
  what: string,
  limit = 40,
): Promise<void> {
  const visited: string[] = [];
  for (let presses = 0; presses < limit; presses++) {
    await page.keyboard.press("Tab");
    const at = await focused(page);
    if (wanted(at)) return;
    visited.push(
      `${at.tag}${at.role ? `[${at.role}]` : ""}${at.id ? `#${at.id}` : ""} "${at.text.slice(0, 30)}"`,
    );
  }
  throw new Error(`Tab never reached ${what}; focus went to ${visited.join(" → ")}`);
}

/** The text of the selected tab of the page's tab list named by its first tab. */
const selectedTab = (page: Page) =>
  page.evaluate(`document.querySelector('[role="tab"][aria-selected="true"]')?.textContent ?? ""`);

describe("the portal by keyboard alone", () => {
  jest.setTimeout(90_000);

  it("opens Register with the arrow keys, registers, and reaches each tab of the console", async () => {
    const { page } = await suite.open();
    const server = suite.server();
    await page.goto(`${server.url}/auth`);
    await page.getByRole("form", { name: "Login" }).waitFor();

    // Only the selected tab is in the Tab order; the arrow keys move to the other one.
    await tabUntil(page, (at) => at.role === "tab" && at.text === "Login", "the Login tab");
    await page.keyboard.press("ArrowRight");
    await expect(focused(page)).resolves.toMatchObject({ role: "tab", text: "Register" });
    await page.keyboard.press("Enter");
    await page.getByRole("form", { name: "Register" }).waitFor();
    await expect(selectedTab(page)).resolves.toBe("Register");

    const suffix = uniqueSuffix();
    const fields: Array<[string, string]> = [
      ["register-firstName", "Kim"],
      ["register-lastName", `Keys ${suffix}`],
      ["register-username", `keys_${suffix}`],
      ["register-email", `keys_${suffix}@example.test`],
      ["register-password", TEST_PASSWORD],
    ];
    for (const [id, value] of fields) {
      await tabUntil(page, (at) => at.id === id, `the field #${id}`, 10);
      await page.keyboard.type(value);
    }
    // Enter in a text field submits the form.
    await page.keyboard.press("Enter");
    await page.waitForURL(`${server.url}/dashboard`);

    // Focus is on the new page's heading, not left on the body.
    await page.getByRole("heading", { level: 1, name: "Your console" }).waitFor();
    await page.waitForFunction("document.activeElement?.tagName === 'H1'");
    await expect(focused(page)).resolves.toMatchObject({ tag: "h1", text: "Your console" });
    await expect(page.title()).resolves.toBe("Dashboard – ESRT Portal");

    // From the heading, Tab goes on to the console's tab list (the welcome overlay's button comes
    // before the heading in the page).
    await tabUntil(page, (at) => at.role === "tab" && at.text === "Welcome", "the console's Welcome tab");
    for (const [name, shows] of [
      ["Benefits", page.getByRole("heading", { name: "What ESRT Pro does for you" })],
      ["Notes", page.getByRole("heading", { name: "Notes for our team" })],
      ["Appointments", page.getByRole("form", { name: "Schedule an appointment" })],
    ] as const) {
      await page.keyboard.press("ArrowRight");
      await expect(focused(page)).resolves.toMatchObject({ role: "tab", text: name });
      await page.keyboard.press("Enter");
      await expect(selectedTab(page)).resolves.toBe(name);
      await shows.waitFor();
    }
    // and back round to the first one
    await page.keyboard.press("ArrowRight");
    await expect(focused(page)).resolves.toMatchObject({ role: "tab", text: "Welcome" });
    await page.keyboard.press("Space");
    await expect(selectedTab(page)).resolves.toBe("Welcome");
  });
});

describe("documents by keyboard alone", () => {
  jest.setTimeout(90_000);

  it("lets a reviewer open a document, reject it with a reason and leave dialogs with Escape", async () => {
    const client = await createUser(suite.db(), { userType: "client" });
    const doc = await createDocument(suite.db(), { userId: client.id, title: `Keyboard ${uniqueSuffix()}` });
    const page = await suite.signedIn(await createAdmin(suite.db()), "/admin/documentation");
    await page.getByRole("heading", { level: 1, name: "Documentation" }).waitFor();
    await page.getByRole("button", { name: doc.title, exact: true }).waitFor();

    await tabUntil(page, (at) => at.tag === "button" && at.text === doc.title, "the document's title", 60);
    await page.keyboard.press("Enter");
    const panel = page.getByRole("region", { name: "Selected document" });
    await panel.getByRole("heading", { name: doc.title }).waitFor();
    await tabUntil(page, (at) => at.text === "Reject…", "the Reject… button");
    await page.keyboard.press("Enter");
    // the reason field has focus as the dialog opens; Escape closes it without a decision
    await page.waitForFunction("document.activeElement?.tagName === 'TEXTAREA'");
    await page.keyboard.press("Escape");
    await page.getByRole("dialog", { name: "Reject document" }).waitFor({ state: "detached" });

    // focus is back on the button that opened the dialog
    await expect(focused(page)).resolves.toMatchObject({ tag: "button", text: "Reject…" });
    await page.keyboard.press("Enter");
    await page.waitForFunction("document.activeElement?.tagName === 'TEXTAREA'");
    await page.keyboard.type("Please send all pages");
    await page.keyboard.press("Control+Enter");
    await waitForToast(page, /^Document rejected /);
    const stored = await suite.db().prisma.document.findUniqueOrThrow({ where: { id: doc.id } });
    expect(stored.status).toBe("rejected");
    expect(stored.rejectionReason).toBe("Please send all pages");
  });

  it("reaches the file picker of /documents with Tab", async () => {
    const page = await suite.signedIn(await createUser(suite.db(), { userType: "client" }), "/documents");
    await page.getByLabel("Choose files to upload").waitFor();
    await tabUntil(page, (at) => at.tag === "input" && at.id === "", "the file picker", 60);
    await expect(page.evaluate("document.activeElement?.getAttribute('aria-label')")).resolves.toBe(
      "Choose files to upload",
    );
  });
});
