import axe from "axe-core";
import type { Page } from "playwright-core";
import { animationsSettled } from "./browser";

/** The WCAG 2.2 A and AA rule sets (axe-core tags) the accessibility tests hold every page to. */
export const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] as const;

/** One rule a page breaks, with the elements that break it. */
export interface AxeFinding {
  rule: string;
  impact: string;
  help: string;
  nodes: Array<{ target: string; summary: string }>;
}

interface AxeRunResult {
  violations: Array<{
    id: string;
    impact?: string | null;
    help: string;
    nodes: Array<{ target: unknown[]; failureSummary?: string }>;
  }>;
}

/**
 * Whether no Blueprint (react-transition-group) enter, appear or exit transition is running. A
 * `-done` class marks a transition over: an element left in place after its exit (`-exit-done`) is
 * not moving, and waiting for it to go waited for nothing (until the test's timeout or its removal).
 */
const TRANSITIONS_OVER =
  'document.querySelectorAll(\'[class*="-enter"]:not([class*="-enter-done"]), [class*="-appear"]:not([class*="-appear-done"]), [class*="-exit"]:not([class*="-exit-done"])\').length === 0';

/**
 * The rules a change of colours alone (the dark theme over the light one) can break: the others
 * (names, roles, structure) judge what both themes share.
 */
export const COLOUR_RULES = ["color-contrast", "link-in-text-block"] as const;

/** What {@link axeFindings} audits: the part of the page `within` selects, and only `rules`. */
export interface AxeScope {
  /** a CSS selector (default: the whole document) */
  within?: string;
  /** rule ids, e.g. {@link COLOUR_RULES} (default: the WCAG 2.2 A and AA rules) */
  rules?: readonly string[];
}

/**
 * Runs axe-core (from npm, injected into the page; the page's context must bypass the CSP, which
 * forbids inline scripts) over the whole document or the part `scope.within` selects, with the WCAG
 * 2.2 A and AA rules (or only `scope.rules`), once any opening or closing transition is over and no
 * finite animation runs, and returns what it found, empty when the page passes.
 */
export async function axeFindings(page: Page, scope: AxeScope = {}): Promise<AxeFinding[]> {
  const { within, rules } = scope;
  // colours are checked as shown: no overlay, dialog or drawer half-faded in or out. Both waits: the
  // classes end on a JS timer, and on a loaded machine the browser's own fade can start a frame or
  // more later and still be running when `-enter-done` is set (a CI run read a dialog at 1.6:1)
  await page.waitForFunction(TRANSITIONS_OVER);
  await animationsSettled(page);
  // evaluated as text: this code is type-checked without the DOM's types
  const loaded = await page.evaluate("typeof window.axe !== 'undefined'");
  if (loaded !== true) await page.addScriptTag({ content: axe.source });
  const runOnly = rules ? { type: "rule", values: rules } : { type: "tag", values: WCAG_TAGS };
  const options = { runOnly, resultTypes: ["violations"] };
  const result = (await page.evaluate(
    `window.axe.run(${within ? JSON.stringify(within) : "document"}, ${JSON.stringify(options)})`,
  )) as AxeRunResult;
  return result.violations.map((violation) => ({
    rule: violation.id,
    impact: violation.impact ?? "unknown",
    help: violation.help,
    nodes: violation.nodes.map((node) => ({
      target: node.target.map(String).join(" "),
      summary: node.failureSummary ?? "",
    })),
  }));
}
