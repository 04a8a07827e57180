import type {
  AccessLevel,
  UserFilter,
  UserSort,
  UserSortField,
  UserStatus,
  UserType,
} from "@web/generated/graphql";

// The user directory page's state (issue 11): the filter form as it lives in the address bar's query
// (so a filtered view can be bookmarked, shared and reloaded), the GraphQL filter it stands for, and
// the export's URL for the same filter and order.

export const USER_TYPE_VALUES: readonly UserType[] = ["prospect", "client", "user", "userAdmin", "mainAdmin"];
export const USER_STATUS_VALUES: readonly UserStatus[] = ["active", "inactive", "archived"];
export const ACCESS_LEVEL_VALUES: readonly AccessLevel[] = ["full", "limited"];
export const PAGE_SIZES = [25, 50, 100, 200] as const;
export const DEFAULT_PAGE_SIZE = 50;

export const USER_TYPE_LABELS: Record<UserType, string> = {
  prospect: "Prospect",
  client: "Client",
  user: "User",
  userAdmin: "User admin",
  mainAdmin: "Main admin",
};
export const USER_STATUS_LABELS: Record<UserStatus, string> = {
  active: "Active",
  inactive: "Inactive",
  archived: "Archived",
};
export const ACCESS_LEVEL_LABELS: Record<AccessLevel, string> = { full: "Full", limited: "Limited" };

export type YesNo = "" | "yes" | "no";

/** The page's filter form, sort and page size: every value a string or list, as in the query string. */
export interface DirectoryState {
  q: string;
  types: UserType[];
  statuses: UserStatus[];
  access: AccessLevel[];
  verified: YesNo;
  synced: YesNo;
  /** YYYY-MM-DD, local days */
  createdFrom: string;
  createdTo: string;
  loginFrom: string;
  loginTo: string;
  sort: UserSortField;
  dir: "asc" | "desc";
  size: number;
}

export const EMPTY_STATE: DirectoryState = {
  q: "",
  types: [],
  statuses: [],
  access: [],
  verified: "",
  synced: "",
  createdFrom: "",
  createdTo: "",
  loginFrom: "",
  loginTo: "",
  sort: "createdAt",
  dir: "desc",
  size: DEFAULT_PAGE_SIZE,
};

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function listOf<T extends string>(value: string | null, allowed: readonly T[]): T[] {
  if (!value) return [];
  return value.split(",").filter((v): v is T => (allowed as readonly string[]).includes(v));
}

const yesNoOf = (value: string | null): YesNo => (value === "yes" || value === "no" ? value : "");
const dayOf = (value: string | null): string => (value && DAY.test(value) ? value : "");

/** The state a query string stands for; unknown or malformed values are left out. */
export function stateFromParams(params: URLSearchParams): DirectoryState {
  const sort = params.get("sort");
  const size = Number(params.get("size"));
  return {
    q: (params.get("q") ?? "").slice(0, 100),
    types: listOf(params.get("type"), USER_TYPE_VALUES),
    statuses: listOf(params.get("status"), USER_STATUS_VALUES),
    access: listOf(params.get("access"), ACCESS_LEVEL_VALUES),
    verified: yesNoOf(params.get("verified")),
    synced: yesNoOf(params.get("synced")),
    createdFrom: dayOf(params.get("createdFrom")),
    createdTo: dayOf(params.get("createdTo")),
    loginFrom: dayOf(params.get("loginFrom")),
    loginTo: dayOf(params.get("loginTo")),
    sort: sort === "name" || sort === "lastLoginAt" || sort === "createdAt" ? sort : EMPTY_STATE.sort,
    dir: params.get("dir") === "asc" ? "asc" : params.get("dir") === "desc" ? "desc" : EMPTY_STATE.dir,
    size: (PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_PAGE_SIZE,
  };
}

/**
 * The query string of a state (defaults left out), keeping the other parameters of `base` (the
 * drawer's `user`).
 */
export function paramsFromState(state: DirectoryState, base: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(base);
  const put = (name: string, value: string, empty: string) => {
    if (value === empty) next.delete(name);
    else next.set(name, value);
  };
  put("q", state.q, "");
  put("type", state.types.join(","), "");
  put("status", state.statuses.join(","), "");
  put("access", state.access.join(","), "");
  put("verified", state.verified, "");
  put("synced", state.synced, "");
  put("createdFrom", state.createdFrom, "");
  put("createdTo", state.createdTo, "");
  put("loginFrom", state.loginFrom, "");
  put("loginTo", state.loginTo, "");
  put("sort", state.sort, EMPTY_STATE.sort);
  put("dir", state.dir, EMPTY_STATE.dir);
  put("size", String(state.size), String(DEFAULT_PAGE_SIZE));
  return next;
}

/** Whether any filter (not the sort or page size) is set. */
export function isFiltered(state: DirectoryState): boolean {
  return (
    state.q.trim() !== "" ||
    state.types.length > 0 ||
    state.statuses.length > 0 ||
    state.access.length > 0 ||
    state.verified !== "" ||
    state.synced !== "" ||
    state.createdFrom !== "" ||
    state.createdTo !== "" ||
    state.loginFrom !== "" ||
    state.loginTo !== ""
  );
}

/** The state without its filters (sort and page size kept). */
export function clearedFilters(state: DirectoryState): DirectoryState {
  return { ...EMPTY_STATE, sort: state.sort, dir: state.dir, size: state.size };
}

/** The first instant of a local day, as ISO. */
function startOfDay(day: string): string {
  return new Date(`${day}T00:00:00`).toISOString();
}

/** The last millisecond of a local day, as ISO. */
function endOfDay(day: string): string {
  return new Date(`${day}T23:59:59.999`).toISOString();
}

/** Which range ends before it starts (its message), or null. */
export function rangeProblem(
  state: DirectoryState,
): { field: "createdTo" | "loginTo"; message: string } | null {
  const message = "The start of a range must not be after its end";
  if (state.createdFrom && state.createdTo && state.createdFrom > state.createdTo) {
    return { field: "createdTo", message };
  }
  if (state.loginFrom && state.loginTo && state.loginFrom > state.loginTo)
    return { field: "loginTo", message };
  return null;
}

/** The GraphQL filter of a state, with the search text given separately (it is debounced). */
export function filterOf(state: DirectoryState, q: string): UserFilter {
  const filter: UserFilter = {};
  const text = q.trim();
  if (text) filter.q = text;
  if (state.types.length) filter.userTypes = state.types;
  if (state.statuses.length) filter.userStatuses = state.statuses;
  if (state.access.length) filter.accessLevels = state.access;
  if (state.verified) filter.emailVerified = state.verified === "yes";
  if (state.synced) filter.esrtSynced = state.synced === "yes";
  if (state.createdFrom) filter.createdFrom = startOfDay(state.createdFrom);
  if (state.createdTo) filter.createdTo = endOfDay(state.createdTo);
  if (state.loginFrom) filter.lastLoginFrom = startOfDay(state.loginFrom);
  if (state.loginTo) filter.lastLoginTo = endOfDay(state.loginTo);
  return filter;
}

export function sortOf(state: DirectoryState): UserSort {
  return { by: state.sort, direction: state.dir };
}

/** GET /api/admin/users/export.csv for a filter and order (the parameters the REST route reads). */
export function exportUrl(filter: UserFilter, sort: UserSort): string {
  const params = new URLSearchParams();
  if (filter.q) params.set("q", filter.q);
  if (filter.userTypes?.length) params.set("userTypes", filter.userTypes.join(","));
  if (filter.userStatuses?.length) params.set("userStatuses", filter.userStatuses.join(","));
  if (filter.accessLevels?.length) params.set("accessLevels", filter.accessLevels.join(","));
  if (filter.emailVerified != null) params.set("emailVerified", String(filter.emailVerified));
  if (filter.esrtSynced != null) params.set("esrtSynced", String(filter.esrtSynced));
  if (filter.createdFrom) params.set("createdFrom", filter.createdFrom);
  if (filter.createdTo) params.set("createdTo", filter.createdTo);
  if (filter.lastLoginFrom) params.set("lastLoginFrom", filter.lastLoginFrom);
  if (filter.lastLoginTo) params.set("lastLoginTo", filter.lastLoginTo);
  params.set("sort", sort.by);
  params.set("direction", sort.direction);
  return `/api/admin/users/export.csv?${params.toString()}`;
}

/** Adds or removes a value of a list filter. */
export function toggled<T>(list: readonly T[], value: T, on: boolean): T[] {
  return on ? [...list.filter((v) => v !== value), value] : list.filter((v) => v !== value);
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });
const instantFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const timeFormat = new Intl.DateTimeFormat(undefined, { timeStyle: "short" });

export const formatDate = (iso: string) => dateFormat.format(new Date(iso));
export const formatInstant = (iso: string | null | undefined) =>
  iso ? instantFormat.format(new Date(iso)) : "Never";
/** The time of day of an instant ("10:30 AM"), shown under its date where a column is narrow. */
export const formatTime = (iso: string) => timeFormat.format(new Date(iso));

const numberFormat = new Intl.NumberFormat();
export const formatCount = (n: number) => numberFormat.format(n);
