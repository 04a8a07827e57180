import { Classes } from "@blueprintjs/core";
import { PREFERENCE_KEYS, readPreference, subscribePreferences } from "./preferences";

// The light or dark theme (issue 21): Blueprint's dark theme is its `bp6-dark` class on <body>, which
// every page and every overlay (portals are children of <body>) inherits; the app's own colours are
// CSS variables of styles.css that `.bp6-dark` redefines.

/** What a person chooses in the user menu; "system" follows the operating system's setting. */
export type ThemeChoice = "light" | "dark" | "system";

/** The media query of an operating system set to dark. */
export const DARK_SCHEME_QUERY = "(prefers-color-scheme: dark)";

/** A stored value as a choice: anything but "light" or "dark" (nothing stored included) is "system". */
export function parseThemeChoice(stored: string | null): ThemeChoice {
  return stored === "light" || stored === "dark" ? stored : "system";
}

/** Whether `choice` shows the dark theme, given whether the operating system prefers dark. */
export function isDarkTheme(choice: ThemeChoice, systemPrefersDark: boolean): boolean {
  return choice === "system" ? systemPrefersDark : choice === "dark";
}

/** The choice this browser stored ("system" when none). */
export function readThemeChoice(): ThemeChoice {
  return parseThemeChoice(readPreference(PREFERENCE_KEYS.theme));
}

/** Puts the theme of the stored choice on the document: Blueprint's dark class and the color-scheme. */
function applyStoredTheme(): void {
  const dark = isDarkTheme(readThemeChoice(), window.matchMedia(DARK_SCHEME_QUERY).matches);
  document.body.classList.toggle(Classes.DARK, dark);
  // the page's own scroll bars and form controls follow the root's color-scheme (set through the
  // CSSOM: the CSP refuses style attributes written in markup, not this)
  document.documentElement.style.colorScheme = dark ? "dark" : "light";
}

/**
 * Applies the stored theme now (main.tsx calls it before the app renders, so the first paint of the
 * app is in the right theme: the CSP allows no inline script in index.html to do it earlier) and
 * again whenever the choice changes (in this tab or another) or, for "system", the operating
 * system's setting changes.
 */
export function startTheme(): void {
  applyStoredTheme();
  subscribePreferences(applyStoredTheme);
  window.matchMedia(DARK_SCHEME_QUERY).addEventListener("change", applyStoredTheme);
}
