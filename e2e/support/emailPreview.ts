import type { Locator, Page } from "playwright-core";
import { waitForToast } from "./portal";

// The email template editor's preview (web/src/features/email/templates), as the browser tests read it.

/** Waits until `read` answers text containing `expected`. @throws when it never does within `timeoutMs`. */
export async function waitForText(read: () => Promise<string>, expected: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  let last = "";
  while (Date.now() < deadline) {
    last = await read().catch(() => "");
    if (last.includes(expected)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`"${expected}" never appeared (last: ${last})`);
}

/** The HTML preview frame's body text. */
export async function previewText(page: Page): Promise<string> {
  const frame = page.frameLocator('iframe[title="HTML preview"]');
  return (await frame.locator("body").textContent()) ?? "";
}

/**
 * Saves the template form `form` shows with its Save button and waits until the page says it was
 * saved and lists the verification template as edited.
 */
export async function saveVerificationTemplate(page: Page, form: Locator): Promise<void> {
  await form.getByRole("button", { name: "Save template" }).click();
  await waitForToast(page, /^Template saved/);
  await page
    .getByRole("button", { name: /Email verification/ })
    .getByText("Edited")
    .waitFor();
}
