import {
  APPOINTMENT_STATUSES,
  type AppointmentStatusName,
  BUSINESS_TIME_ZONE,
  slotsOfBusinessDay,
} from "@schema/validation/appointment";
import { DateTime } from "luxon";

// The appointment console's logic apart from React (spec §2 /admin/appointments): the work week in
// business time, where each appointment sits in it, the text filter and the counts per status.

/** What the console needs of an appointment. */
export interface AdminAppointmentLike {
  id: number;
  dateTime: string;
  status: AppointmentStatusName;
  clientFirstName: string;
  clientLastName: string;
  clientEmail: string;
}

/** The Monday (business date) of the week holding `date` (YYYY-MM-DD), moved by `weeks`. */
export function mondayOf(date: string, weeks = 0): string {
  const day = DateTime.fromISO(date, { zone: BUSINESS_TIME_ZONE });
  return day.startOf("week").plus({ weeks }).toISODate() ?? date;
}

/** The Monday of the work week to show first at `now`: this week's, or next week's at a weekend. */
export function currentMonday(now: Date = new Date()): string {
  const today = DateTime.fromJSDate(now, { zone: BUSINESS_TIME_ZONE });
  return mondayOf(today.toISODate() ?? "", today.weekday > 5 ? 1 : 0);
}

/** Today's business date at `now`. */
export function businessToday(now: Date = new Date()): string {
  return DateTime.fromJSDate(now, { zone: BUSINESS_TIME_ZONE }).toISODate() ?? "";
}

/** One column of the week view. */
export interface WeekDay {
  date: string;
  /** "Mon 9 Mar" */
  label: string;
  /** the slot starts of the day, UTC ISO, 9:00 AM to 4:30 PM business time */
  slots: string[];
}

/** Monday to Friday of the week starting `monday`, each with its sixteen slot starts. */
export function workWeek(monday: string): WeekDay[] {
  const start = DateTime.fromISO(monday, { zone: BUSINESS_TIME_ZONE });
  return [0, 1, 2, 3, 4].map((offset) => {
    const day = start.plus({ days: offset });
    const date = day.toISODate() ?? "";
    return {
      date,
      label: day.setLocale("en-US").toFormat("ccc d LLL"),
      slots: slotsOfBusinessDay(date).map((s) => s.toISOString()),
    };
  });
}

/** The row labels of the week view: "9:00 AM" … "4:30 PM". */
export function slotLabels(): string[] {
  return slotsOfBusinessDay("2030-01-07").map((s) =>
    DateTime.fromJSDate(s, { zone: BUSINESS_TIME_ZONE }).setLocale("en-US").toFormat("h:mm a"),
  );
}

/** The appointments of each slot start (UTC ms), live ones first. */
export function bySlot<T extends AdminAppointmentLike>(appointments: readonly T[]): Map<number, T[]> {
  const map = new Map<number, T[]>();
  for (const a of appointments) {
    const key = new Date(a.dateTime).getTime();
    const list = map.get(key) ?? [];
    list.push(a);
    map.set(key, list);
  }
  for (const list of map.values()) {
    list.sort((x, y) => Number(x.status === "cancelled") - Number(y.status === "cancelled"));
  }
  return map;
}

/** The appointments whose client's name or email contains `query` (case and accents ignored). */
export function matchingClient<T extends AdminAppointmentLike>(
  appointments: readonly T[],
  query: string,
): T[] {
  const fold = (s: string) =>
    s
      .normalize("NFD")
      .replace(/\p{Diacritic}/gu, "")
      .toLowerCase();
  const needle = fold(query.trim());
  if (!needle) return [...appointments];
  return appointments.filter((a) =>
    fold(`${a.clientFirstName} ${a.clientLastName} ${a.clientEmail}`).includes(needle),
  );
}

/** How many appointments have each status. */
export function countByStatus(
  appointments: readonly AdminAppointmentLike[],
): Record<AppointmentStatusName, number> {
  const counts = Object.fromEntries(APPOINTMENT_STATUSES.map((s) => [s, 0])) as Record<
    AppointmentStatusName,
    number
  >;
  for (const a of appointments) counts[a.status] += 1;
  return counts;
}

/** Whether an appointment can still be changed at `now`: not cancelled and not yet started. */
export function isChangeable(a: AdminAppointmentLike, now: Date = new Date()): boolean {
  return a.status !== "cancelled" && new Date(a.dateTime).getTime() > now.getTime();
}

/** A sortable column of the table: the server sorts by date, booking time and status, the browser by client. */
export type SortColumn = "dateTime" | "createdAt" | "status" | "client";

/**
 * The server's sort key for a column and direction ("dateTime", "-createdAt", …); the client column
 * is sorted in the browser over the server's default order (soonest first), so it has none.
 */
export function sortKey(column: SortColumn, descending: boolean): string | undefined {
  if (column === "client") return undefined;
  return descending ? `-${column}` : column;
}

/** The appointments in the table's order: by client (last, first name, then email) when asked, else as listed. */
export function sortedForTable<T extends AdminAppointmentLike>(
  appointments: readonly T[],
  column: SortColumn,
  descending: boolean,
): T[] {
  if (column !== "client") return [...appointments];
  const collator = new Intl.Collator("en", { sensitivity: "base" });
  const key = (a: T) => [a.clientLastName, a.clientFirstName, a.clientEmail];
  const sign = descending ? -1 : 1;
  // Array.prototype.sort is stable, so one client's appointments keep the server's date order
  return [...appointments].sort((x, y) => {
    const [kx, ky] = [key(x), key(y)];
    for (let i = 0; i < kx.length; i++) {
      const c = collator.compare(kx[i] ?? "", ky[i] ?? "");
      if (c !== 0) return sign * c;
    }
    return 0;
  });
}

/** How many appointments the server lists at most for one query (services/appointment/adminListAppointments). */
export const LIST_LIMIT = 500;

/**
 * What is wrong with a date range of the filters (business dates, YYYY-MM-DD, either may be empty),
 * or null when the server can be asked.
 */
export function dateRangeProblem(from: string, to: string): string | null {
  const valid = (d: string) =>
    d === "" || (/^\d{4}-\d{2}-\d{2}$/.test(d) && DateTime.fromISO(d, { zone: BUSINESS_TIME_ZONE }).isValid);
  if (!valid(from) || !valid(to)) return "Enter dates as YYYY-MM-DD";
  if (from && to && from > to) return "The From date must be on or before the To date";
  return null;
}

/** The business date (e.g. "Nov 8, 2032") of an instant, as the table's Booked column shows it. */
export function pacificDate(iso: string): string {
  return DateTime.fromISO(iso, { zone: BUSINESS_TIME_ZONE }).setLocale("en-US").toFormat("LLL d, yyyy");
}
