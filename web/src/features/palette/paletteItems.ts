import type { UserTypeName } from "@schema/validation/user";
import { isAdminType } from "@web/features/console/consoleUser";
import { ROLE_SWITCHER_PATH } from "@web/features/role-switcher/roleSwitcher";
import { routes } from "@web/routes";

// What the command palette offers (issue 21): the admin pages the signed-in admin may open, by the
// route table's own access rules, matched by name, and the users the directory's search finds.

/** An admin page the palette opens. */
export interface PalettePage {
  kind: "page";
  key: string;
  path: string;
  title: string;
}

/** A user the palette opens in User Management's drawer. */
export interface PaletteUser {
  kind: "user";
  key: string;
  id: number;
  name: string;
  email: string;
  uniqueId: string;
}

export type PaletteItem = PalettePage | PaletteUser;

/** The least of the signed-in admin the palette needs. */
export interface PaletteViewer {
  userType: UserTypeName;
  /** the permissions the user holds (the server's permission matrix) */
  permissions: readonly string[];
}

/** Words a page is also found by, besides its title and its path. */
const ALSO_FOUND_BY: Record<string, string> = {
  "/admin/dashboard": "home overview figures audit log activity",
  "/admin/user-management": "users people accounts directory clients prospects admins",
  "/admin/storage": "files uploads documents s3 cloud settings",
  "/admin/branding": "logo title product phone business hours settings",
  "/admin/security": "passwords sign-in two-factor 2fa rate limits sessions settings",
  "/admin/testing": "tools health diagnostics events dead letters demo data",
  "/admin/documentation": "documents review approve reject reports",
  "/admin/esrt-communication": "pro app sync webhooks endpoints api keys deliveries",
  "/admin/email-templates": "emails messages templates",
  "/admin/email-settings": "emails smtp server sender reply-to",
  "/admin/email-testing": "emails delivery log test send",
  "/admin/appointments": "consultations bookings calendar schedule",
  [ROLE_SWITCHER_PATH]: "demo users roles switch sign in as prospect client",
};

/** The least a user must type before the palette asks the directory. */
export const MIN_USER_QUERY = 2;
/** How many users the palette shows at most. */
export const USER_RESULTS = 5;

/** `text` lower-cased and without accents, as the palette compares it. */
export function normalize(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

/**
 * The admin pages `viewer` may open, the Admin Dashboard first: none but for a mainAdmin or a
 * userAdmin (the top bar's rule), and each only with every permission its route asks for (the admin
 * guard's). With `roleSwitcher` (a mainAdmin outside production), the role switcher too.
 */
export function adminPages(viewer: PaletteViewer, options: { roleSwitcher: boolean }): PalettePage[] {
  if (!isAdminType(viewer.userType)) return [];
  const pages = routes
    .filter((route) => route.path.startsWith("/admin/"))
    .filter(
      (route) =>
        typeof route.access !== "object" ||
        route.access.permissions.every((permission) => viewer.permissions.includes(permission)),
    )
    .map((route): PalettePage => ({ kind: "page", key: route.path, path: route.path, title: route.title }));
  const dashboard = pages.filter((page) => page.path === "/admin/dashboard");
  const others = pages.filter((page) => page.path !== "/admin/dashboard");
  const switcher: PalettePage[] =
    options.roleSwitcher && viewer.permissions.includes("manage:config")
      ? [{ kind: "page", key: ROLE_SWITCHER_PATH, path: ROLE_SWITCHER_PATH, title: "Role Switcher" }]
      : [];
  return [...dashboard, ...others, ...switcher];
}

/** How well `page` answers the words of `query`: 0 best; null when some word is not found. */
function rank(page: PalettePage, words: readonly string[], whole: string): number | null {
  const title = normalize(page.title);
  const haystack = `${title} ${normalize(ALSO_FOUND_BY[page.path] ?? "")} ${page.path}`;
  if (!words.every((word) => haystack.includes(word))) return null;
  if (title.startsWith(whole)) return 0;
  const titleWords = title.split(/\s+/);
  if (words.every((word) => titleWords.some((t) => t.startsWith(word)))) return 1;
  if (words.every((word) => title.includes(word))) return 2;
  return 3;
}

/**
 * The pages whose title, path or other words hold every word of `query` (case and accents
 * ignored), best first: the title starting with the query, then every word starting a word of the
 * title, then found in the title, then elsewhere; in their own order within each. An empty query
 * keeps every page.
 */
export function matchPages(pages: readonly PalettePage[], query: string): PalettePage[] {
  const whole = normalize(query.trim());
  const words = whole.split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...pages];
  return pages
    .map((page, index) => ({ page, index, score: rank(page, words, whole) }))
    .filter((entry): entry is { page: PalettePage; index: number; score: number } => entry.score !== null)
    .sort((a, b) => a.score - b.score || a.index - b.index)
    .map((entry) => entry.page);
}

/** Where choosing a user leads: User Management with that user's drawer open. */
export function userDrawerPath(userId: number): string {
  return `/admin/user-management?user=${userId}`;
}

/** A count with its noun: "1 page", "3 users". */
function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/** What the palette's results come to, as its live region says it. */
export interface ResultsState {
  query: string;
  pages: number;
  users: number;
  /** the directory's answer to the query is still to come */
  searching: boolean;
  /** whether users are searched at all (manage:users) */
  findsUsers: boolean;
  /** the directory's search failed: the message to show */
  problem: string | null;
}

/**
 * The sentence screen readers hear (and the palette shows) about its results: how many pages and
 * users match, that users are still being searched, or that nothing matches.
 */
export function resultsSentence(state: ResultsState): string {
  const typed = state.query.trim();
  const pages = count(state.pages, "page");
  if (!typed) return `${pages}. Type to filter, or to find a user.`;
  if (!state.findsUsers) return state.pages === 0 ? `No page matches “${typed}”.` : `${pages} match.`;
  if (state.searching) return `${pages}; searching users…`;
  if (state.problem) return `${pages}; users could not be searched.`;
  if (typed.length < MIN_USER_QUERY)
    return `${pages}. Type ${MIN_USER_QUERY} or more characters to find users.`;
  if (state.pages === 0 && state.users === 0) return `No page or user matches “${typed}”.`;
  return `${pages} and ${count(state.users, "user")}.`;
}
