import type { AdminDashboardQuery, DashboardFigure } from "@web/generated/graphql";

// The dashboard's pure parts: labels, which page acts on each figure and whether this admin may
// follow it, and the registrations chart's scale.

export type Dashboard = AdminDashboardQuery["adminDashboard"];

/** The page that acts on each figure, by its top-bar name. */
export const PAGE_NAMES: Record<DashboardFigure, string> = {
  users: "User Management",
  unverified: "User Management",
  pendingDocuments: "Documentation",
  appointments: "Appointments",
  sync: "ESRT Communication",
  emailFailures: "Email Testing",
};

export const USER_TYPE_LABELS: Record<string, string> = {
  user: "Client access requested",
  prospect: "Prospects",
  client: "Clients",
  mainAdmin: "Main admins",
  userAdmin: "User admins",
};

export const USER_STATUS_LABELS: Record<string, string> = {
  active: "Active",
  inactive: "Inactive",
  archived: "Archived",
};

export const SYNC_HEALTH_LABELS: Record<string, string> = {
  healthy: "Healthy",
  degraded: "Degraded",
  paused: "Paused",
  disabled: "Off",
};

/** Where a figure's card leads, or null when this admin may not open that page. */
export function linkOf(dashboard: Dashboard, figure: DashboardFigure): string | null {
  const link = dashboard.links.find((l) => l.figure === figure);
  return link?.allowed ? link.path : null;
}

/** The user-management address for one value of a filter, e.g. ?userTypes=client. */
export function userFilterPath(base: string, name: "userTypes" | "userStatuses", value: string): string {
  return `${base.split("?")[0]}?${new URLSearchParams({ [name]: value }).toString()}`;
}

/** A count as the cards show it: 12,345. */
export function formatCount(n: number): string {
  return n.toLocaleString("en-US");
}

/** A business day (YYYY-MM-DD) as "Nov 19" (the day as written, whatever the browser's zone). */
export function formatDay(day: string): string {
  const [y, m, d] = day.split("-").map(Number);
  if (!y || !m || !d) return day;
  return new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" }).format(
    new Date(Date.UTC(y, m - 1, d)),
  );
}

/** The chart's top value: the largest count rounded up to a readable step (at least 1). */
export function chartMax(counts: readonly number[]): number {
  const max = Math.max(1, ...counts);
  if (max <= 5) return max;
  const step = 10 ** Math.floor(Math.log10(max));
  return Math.ceil(max / (step / 2)) * (step / 2);
}

/** One sentence that says what the chart shows, for screen readers and as its caption. */
export function registrationsSummary(days: readonly { day: string; count: number }[]): string {
  const total = days.reduce((n, d) => n + d.count, 0);
  if (days.length === 0) return "No registrations.";
  if (total === 0) return `No new registrations in the last ${days.length} days.`;
  const busiest = days.reduce((best, d) => (d.count > best.count ? d : best));
  return `${formatCount(total)} new ${total === 1 ? "registration" : "registrations"} in the last ${days.length} days; the busiest day was ${formatDay(busiest.day)} with ${formatCount(busiest.count)}.`;
}
