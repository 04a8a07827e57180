import { isAdminPath, routes } from "@web/routes";

export { isAdminPath };

// The admin area's pages as its navigation lists them (issue 21): grouped, each with the access rule
// of its route in web/src/routes.tsx, so the navigation offers exactly the pages the admin guard
// would open for this admin.

/** The icon of an admin page, by name (AdminNav draws it; names keep this module free of React). */
export type AdminPageIcon =
  | "dashboard"
  | "people"
  | "calendar"
  | "document"
  | "exchange"
  | "style"
  | "shield"
  | "database"
  | "envelope"
  | "cog"
  | "send"
  | "wrench";

/** One page of the admin navigation. */
export interface AdminPage {
  path: string;
  /** what the navigation shows */
  label: string;
  /** a name that says more than the label where the label alone is ambiguous ("Testing") */
  name?: string;
  icon: AdminPageIcon;
  /** other paths of the same page (the dashboard's /admin/dashboard) */
  aliases?: readonly string[];
  /** a data page: its tables use the width of the screen (else a readable column, for forms) */
  wide: boolean;
}

/** A labelled group of admin pages. */
export interface AdminPageGroup {
  label: string;
  pages: readonly AdminPage[];
}

/** Every admin page, grouped, in the order the navigation lists them. */
export const ADMIN_PAGE_GROUPS: readonly AdminPageGroup[] = [
  {
    label: "People",
    pages: [
      { path: "/admin", label: "Dashboard", icon: "dashboard", aliases: ["/admin/dashboard"], wide: true },
      { path: "/admin/user-management", label: "User management", icon: "people", wide: true },
      { path: "/admin/appointments", label: "Appointments", icon: "calendar", wide: true },
      { path: "/admin/documentation", label: "Documentation", icon: "document", wide: true },
    ],
  },
  {
    label: "Pro app",
    pages: [{ path: "/admin/esrt-communication", label: "ESRT Communication", icon: "exchange", wide: true }],
  },
  {
    label: "Settings",
    pages: [
      { path: "/admin/branding", label: "Branding", icon: "style", wide: false },
      { path: "/admin/security", label: "Security", icon: "shield", wide: false },
      { path: "/admin/storage", label: "Storage", icon: "database", wide: false },
    ],
  },
  {
    label: "Email",
    pages: [
      {
        path: "/admin/email-templates",
        label: "Templates",
        name: "Email templates",
        icon: "envelope",
        wide: true,
      },
      { path: "/admin/email-settings", label: "Settings", name: "Email settings", icon: "cog", wide: false },
      { path: "/admin/email-testing", label: "Testing", name: "Email testing", icon: "send", wide: true },
    ],
  },
  {
    label: "Tools",
    pages: [{ path: "/admin/testing", label: "Testing", name: "Testing tools", icon: "wrench", wide: false }],
  },
];

/** Whether `page` is the one at `pathname`. */
export function isCurrentAdminPage(page: AdminPage, pathname: string): boolean {
  return page.path === pathname || (page.aliases ?? []).includes(pathname);
}

/** The admin page at `pathname`, if it is one. */
export function adminPageAt(pathname: string): AdminPage | undefined {
  for (const group of ADMIN_PAGE_GROUPS) {
    const page = group.pages.find((p) => isCurrentAdminPage(p, pathname));
    if (page) return page;
  }
  return undefined;
}

/**
 * Whether an admin holding `permissions` may open `page`: every permission its route asks for (the
 * route's access rule, as the admin guard checks it); a route that asks for none is open to any admin.
 */
export function mayOpen(page: AdminPage, permissions: readonly string[]): boolean {
  const route = routes.find((r) => r.path === page.path);
  if (!route) return false;
  const { access } = route;
  return typeof access !== "object" || access.permissions.every((p) => permissions.includes(p));
}

/** The groups and pages an admin holding `permissions` may open; a group left empty is left out. */
export function adminPagesFor(permissions: readonly string[]): AdminPageGroup[] {
  return ADMIN_PAGE_GROUPS.map((group) => ({
    label: group.label,
    pages: group.pages.filter((page) => mayOpen(page, permissions)),
  })).filter((group) => group.pages.length > 0);
}
