import { createAdmin } from "@services/shared/testing/factories";
import type { Locator, Page } from "playwright-core";
import { axeFindings } from "./support/axe";
import { previewText, saveVerificationTemplate, waitForText } from "./support/emailPreview";
import { PHONE, pressEnterOn, sidewaysScroll, waitForToast } from "./support/portal";
import { browserSuite } from "./support/suite";

// The email template editor in Chromium (issue 21 §2): the HTML body in a code editor that completes
// the template's variables after "{{" (accepted by keyboard), marks the line of an unknown variable,
// and drives a live preview shown at a desktop's and a phone's width; saved from there. Keyboard only
// (Tab leaves the editor), axe in the light theme and the editor in the dark one, and 375 px.

// a database of the file's own: the templates it saves are no other file's
const suite = browserSuite({}, { isolatedDatabase: true });

/** The code editor named `name` in `scope`, once it has loaded (the plain textarea stands in till then). */
async function codeEditor(scope: Locator | Page, name: string): Promise<Locator> {
  const editor = scope.getByRole("textbox", { name, exact: true }).and(scope.locator("[contenteditable]"));
  await editor.waitFor();
  return editor;
}

/** Whether `target` (in the document or a shadow root) has the focus. */
function hasFocus(target: Locator): Promise<boolean> {
  return target.evaluate((el) => {
    const root = el.getRootNode() as { activeElement?: unknown };
    return root.activeElement === el;
  });
}

/**
 * CodeMirror's completion list takes no key in the first 75 ms after it opens (its interactionDelay:
 * a fast typist's Enter is not taken for a choice): resolves once `list` is open and that time is over.
 */
async function completionsTakeKeys(list: Locator): Promise<void> {
  await list.waitFor();
  const page = list.page();
  const openedAt = await page.evaluate(() => performance.now());
  await page.waitForFunction((since) => performance.now() - since >= 80, openedAt);
}

/** The editor's text, line by line (CodeMirror draws each line as a `.cm-line`). */
async function editorLines(editor: Locator): Promise<string[]> {
  return editor.locator(".cm-line").allTextContents();
}

describe("the email template editor in the browser", () => {
  it("completes variables after {{, marks an unknown variable's line, previews at two widths and saves", async () => {
    const admin = await createAdmin(suite.db());
    // the app's own CSP: the editor's styles and typing break none of it (a violation fails the test)
    const page = await suite.signedIn(admin, "/admin/email-templates");
    await page.getByRole("button", { name: "Email verification" }).click();
    const form = page.getByRole("form", { name: "Edit the Email verification template" });
    const html = await codeEditor(form, "HTML body");

    // typed over the whole body: "{{" offers the template's variables, Enter takes the one chosen
    await html.click();
    await page.keyboard.press("Control+a");
    await page.keyboard.type("<p>Hello {{");
    const completions = page.getByRole("listbox");
    await completions.waitFor();
    const offered = await completions.getByRole("option").allTextContents();
    for (const name of ["firstName", "lastName", "link", "expiresInHours", "productName"]) {
      expect(offered.some((text) => text.startsWith(name))).toBe(true);
    }
    expect(offered.some((text) => text.startsWith("resetLink"))).toBe(false);
    await page.keyboard.type("first");
    await completions.getByRole("option", { name: /^firstName/, selected: true }).waitFor();
    await completionsTakeKeys(completions);
    await page.keyboard.press("Enter");
    await completions.waitFor({ state: "detached" });
    await page.keyboard.type(",");
    // (the HTML mode closed the paragraph when its tag was typed)
    await waitForText(async () => (await editorLines(html)).join("\n"), "<p>Hello {{firstName}},</p>");
    expect(await editorLines(html)).toEqual(["<p>Hello {{firstName}},</p>"]);

    // an unknown variable on line 2: its line is marked, its message shown, and a save refused
    await page.keyboard.press("Enter");
    await page.keyboard.type("Open {{secret}} now");
    await page.keyboard.press("Escape");
    const message = 'HTML body, line 2: Unknown variable "secret"';
    await form.locator(".bp6-form-helper-text", { hasText: message }).waitFor();
    const marked = html.locator(".cm-line.cm-errorLine");
    await marked.filter({ hasText: "Open {{secret}} now" }).waitFor();
    expect(await marked.count()).toBe(1);
    await html.locator(".cm-lintRange-error", { hasText: "{{secret}}" }).waitFor();
    await form.getByRole("button", { name: "Save template" }).click();
    await page
      .getByRole("alert")
      .filter({ hasText: "The template was not saved" })
      .filter({ hasText: message })
      .waitFor();

    // fixed: the mark goes, and the preview follows the typing
    await html.fill(
      '<p>Hello {{firstName}} {{lastName}},</p>\n<p><a href="{{link}}">Confirm your address</a></p>',
    );
    await marked.waitFor({ state: "detached" });
    await waitForText(() => previewText(page), "Hello Maria Lopez,");
    await waitForText(() => previewText(page), "Confirm your address");

    // the preview at a desktop's width (600 px or more) and at a phone's (375 px)
    const frame = page.locator('iframe[title="HTML preview"]');
    const widthOf = async () => Math.round((await frame.boundingBox())?.width ?? 0);
    expect(await widthOf()).toBeGreaterThanOrEqual(600);
    const widths = page.getByRole("radiogroup", { name: "Preview width" });
    await widths.getByRole("radio", { name: "Phone" }).click();
    await widths.getByRole("radio", { name: "Phone", checked: true }).waitFor();
    await waitForText(async () => String(await widthOf()), "375");
    const frameWidth = await frame.evaluate(
      (el) =>
        (el as unknown as { contentWindow: { innerWidth: number } | null }).contentWindow?.innerWidth ?? 0,
    );
    expect(frameWidth).toBeGreaterThan(300);
    expect(frameWidth).toBeLessThanOrEqual(375);
    await waitForText(() => previewText(page), "Hello Maria Lopez,");

    await saveVerificationTemplate(page, form);
    const stored = await suite
      .db()
      .prisma.emailTemplate.findUniqueOrThrow({ where: { key: "email_verification" } });
    expect(stored.html).toBe(
      '<p>Hello {{firstName}} {{lastName}},</p>\n<p><a href="{{link}}">Confirm your address</a></p>',
    );
  }, 90_000);

  it("works by keyboard alone (Tab leaves the editor), passes axe light and dark, and fits 375 px", async () => {
    const admin = await createAdmin(suite.db());
    const page = await suite.signedIn(admin, "/admin/email-templates", { bypassCSP: true });
    await pressEnterOn(page.getByRole("button", { name: "Password reset" }));
    const form = page.getByRole("form", { name: "Edit the Password reset template" });
    const html = await codeEditor(form, "HTML body");
    const text = await codeEditor(form, "Text body");
    await page.locator('iframe[title="HTML preview"]').waitFor();
    expect(await axeFindings(page)).toEqual([]);

    // from the subject, Tab reaches the HTML editor; "{{" and the arrows pick a variable; Tab goes on
    await form.getByLabel("Subject").focus();
    await page.keyboard.press("Tab");
    expect(await hasFocus(html)).toBe(true);
    await page.keyboard.press("Control+End");
    await page.keyboard.press("Enter");
    await page.keyboard.type("<p>Valid for {{");
    const completions = page.getByRole("listbox");
    await completions.getByRole("option", { name: /^expiresInMinutes/ }).waitFor();
    await completionsTakeKeys(completions);
    const selected = completions.getByRole("option", { selected: true });
    // down the list to the variable, then Enter
    for (let i = 0; i < 10 && !/^expiresInMinutes/.test((await selected.textContent()) ?? ""); i++) {
      await page.keyboard.press("ArrowDown");
    }
    await completions.getByRole("option", { name: /^expiresInMinutes/, selected: true }).waitFor();
    await page.keyboard.press("Enter");
    await completions.waitFor({ state: "detached" });
    await page.keyboard.type(" minutes.");
    // (CodeMirror reads typed text from the DOM a moment later: wait for the line, do not read it once)
    await waitForText(
      async () => (await editorLines(html)).at(-1) ?? "",
      "<p>Valid for {{expiresInMinutes}} minutes.</p>",
    );
    await page.keyboard.press("Tab");
    expect(await hasFocus(html)).toBe(false);
    expect(await hasFocus(text)).toBe(true);
    await page.keyboard.press("Shift+Tab");
    expect(await hasFocus(html)).toBe(true);

    // the preview's width by keyboard: the radio group moves with the arrows
    await page.getByRole("radio", { name: "Desktop" }).focus();
    await page.keyboard.press("ArrowRight");
    await page.getByRole("radio", { name: "Phone", checked: true }).waitFor();
    await waitForText(() => previewText(page), "Valid for 60 minutes.");

    // saved with Enter on the Save button
    await pressEnterOn(form.getByRole("button", { name: "Save template" }));
    await waitForToast(page, /^Template saved/);
    expect(await axeFindings(page)).toEqual([]);

    // the dark theme (System follows the browser's scheme): the page, and the editor's highlighting,
    // gutter and marks, keep their contrast
    await page.emulateMedia({ colorScheme: "dark" });
    await page.waitForFunction("document.body.classList.contains('bp6-dark')");
    await html.fill("<p>Hello {{firstName}},</p>\n<p>Open {{secret}}</p>");
    await html.locator(".cm-line.cm-errorLine", { hasText: "Open {{secret}}" }).waitFor();
    expect(await axeFindings(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: "light" });

    // a phone: nothing scrolls sideways, even with the preview at a desktop's width
    const phone = await suite.signedIn(admin, "/admin/email-templates", PHONE);
    await codeEditor(phone, "HTML body");
    await phone.locator('iframe[title="HTML preview"]').waitFor();
    await phone.waitForFunction(
      "document.querySelector('main .bp6-spinner, main [aria-busy=\"true\"]') === null",
    );
    expect(await axeFindings(phone)).toEqual([]);
    expect(await sidewaysScroll(phone)).toBe(0);
    await phone.getByRole("radio", { name: "Phone" }).click();
    expect(await sidewaysScroll(phone)).toBe(0);
  }, 90_000);
});
