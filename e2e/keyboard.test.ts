import { samplePdf } from "@services/document/testing";
import { createAdmin, createUser, TEST_PASSWORD, uniqueSuffix } from "@services/shared/testing/factories";
import type { Page } from "playwright-core";
import { createStoredDocument, findInQueue } from "./support/documents";
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
 * Presses Tab (or `key`, Shift+Tab to go back) until focus is on what `wanted` accepts.
 * @throws naming where focus went when it is not reached within `limit` presses.
 */
async function tabUntil(
  page: Page,
  wanted: (at: Awaited<ReturnType<typeof focused>>) => boolean,
  what: string,
  limit = 40,
  key: "Tab" | "Shift+Tab" = "Tab",
): Promise<void> {
  const visited: string[] = [];
  for (let presses = 0; presses < limit; presses++) {
    await page.keyboard.press(key);
    const at = await focused(page);
    if (wanted(at)) return;
    visited.push(
      `${at.tag}${at.role ? `[${at.role}]` : ""}${at.id ? `#${at.id}` : ""} "${at.text.slice(0, 30)}"`,
    );
  }
  throw new Error(`${key} never reached ${what}; focus went to ${visited.join(" → ")}`);
}

/**
 * Waits until an element with tag name `tag` (upper case) has focus. The check is a function, not a
 * string: Playwright re-evaluates a string on each poll with eval, which the app's CSP refuses.
 */
const focusReaches = (page: Page, tag: string) =>
  page.waitForFunction(
    (name) =>
      (globalThis as unknown as { document: { activeElement: { tagName: string } | null } }).document
        .activeElement?.tagName === name,
    tag,
  );

/**
 * Waits until focus is on an element with `expected`'s tag and text: focus returned by code (a
 * dialog's opener after it closes) moves a moment after the change a test waited for.
 * @throws the expectation's error, naming where focus is, after `ms`.
 */
async function focusMovesTo(page: Page, expected: { tag: string; text: string }, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  let at = await focused(page);
  while ((at.tag !== expected.tag || at.text !== expected.text) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    at = await focused(page);
  }
  expect(at).toMatchObject(expected);
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

    // Focus is on the new page's heading, not left on the body: the new account's email is to be
    // verified first (issue 20), so the page says so.
    await page.getByRole("heading", { level: 1, name: "Verify your email" }).waitFor();
    await focusReaches(page, "H1");
    await expect(focused(page)).resolves.toMatchObject({ tag: "h1", text: "Verify your email" });
    await expect(page.title()).resolves.toBe("Dashboard – ESRT Portal");

    // the emailed link followed (marked here), the console opens
    await suite
      .db()
      .prisma.user.update({ where: { username: `keys_${suffix}` }, data: { emailVerified: true } });
    await page.reload();
    await page.getByRole("heading", { level: 1, name: "Your console" }).waitFor();

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

  it("lets a reviewer open a document, turn its pages, reject it with a reason and leave dialogs with Escape", async () => {
    const client = await createUser(suite.db(), { userType: "client" });
    const doc = await createStoredDocument(
      suite.db(),
      { userId: client.id, title: `Keyboard ${uniqueSuffix()}` },
      samplePdf(["First page", "Second page"]),
    );
    const page = await suite.signedIn(await createAdmin(suite.db()), "/admin/documentation");
    await page.getByRole("heading", { level: 1, name: "Documentation" }).waitFor();
    await findInQueue(page, doc.title);

    await tabUntil(page, (at) => at.tag === "button" && at.text === doc.title, "the document's title", 60);
    await page.keyboard.press("Enter");
    const panel = page.getByRole("region", { name: "Selected document" });
    await panel.getByRole("heading", { name: doc.title }).waitFor();

    // the PDF's pages, drawn in the panel, turn with the keyboard; focus stays on the navigation
    await panel.getByText("Page 1 of 2", { exact: true }).waitFor();
    await tabUntil(page, (at) => at.text === "Next page", "the Next page button");
    await page.keyboard.press("Enter");
    await panel.getByRole("img", { name: `Page 2 of 2 of ${doc.title}` }).waitFor();
    await focusMovesTo(page, { tag: "button", text: "Previous page" });
    await page.keyboard.press("Enter");
    await panel.getByRole("img", { name: `Page 1 of 2 of ${doc.title}` }).waitFor();
    await focusMovesTo(page, { tag: "button", text: "Next page" });
    await tabUntil(page, (at) => at.text === "Text of page 1", "the page's text");
    await page.keyboard.press("Enter");
    await panel.getByText("First page", { exact: true }).waitFor();

    await tabUntil(page, (at) => at.text === "Reject…", "the Reject… button", 40, "Shift+Tab");
    await page.keyboard.press("Enter");
    // the reason field has focus as the dialog opens; Escape closes it without a decision
    await focusReaches(page, "TEXTAREA");
    await page.keyboard.press("Escape");
    await page.getByRole("dialog", { name: "Reject document" }).waitFor({ state: "detached" });

    // focus is back on the button that opened the dialog
    await focusMovesTo(page, { tag: "button", text: "Reject…" });
    await page.keyboard.press("Enter");
    await focusReaches(page, "TEXTAREA");
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
