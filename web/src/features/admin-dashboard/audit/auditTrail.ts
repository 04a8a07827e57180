import { dayRange } from "@web/features/documents/documents";
import type { AuditFilter } from "@web/generated/graphql";

// The audit view's pure parts: the filter form and its variables, the export's address, and how an
// entry's change and names read.

export const AUDIT_PAGE_SIZE = 50;
export const COMPACT_PAGE_SIZE = 20;
export const AUDIT_EXPORT_PATH = "/api/admin/audit/export.csv";

/** The areas of the log, for the action filter (a prefix each). */
export const ACTION_AREAS: { value: string; label: string }[] = [
  { value: "user.", label: "Users and sign-ins" },
  { value: "document.", label: "Documents" },
  { value: "appointment.", label: "Appointments" },
  { value: "storage.", label: "Storage settings" },
  { value: "esrt.", label: "Pro-app sync" },
  { value: "audit.", label: "Audit exports" },
];

/** The filter form as typed: text everywhere, checked when turned into variables. */
export interface AuditFilterForm {
  area: string;
  action: string;
  actorId: string;
  targetUserId: string;
  from: string;
  to: string;
}

export const EMPTY_AUDIT_FILTER: AuditFilterForm = {
  area: "",
  action: "",
  actorId: "",
  targetUserId: "",
  from: "",
  to: "",
};

const ID = /^\d{1,10}$/;

/** What is wrong with the form, field by field (empty when nothing). */
export function auditFilterProblems(form: AuditFilterForm): Partial<Record<keyof AuditFilterForm, string>> {
  const problems: Partial<Record<keyof AuditFilterForm, string>> = {};
  if (form.actorId.trim() && !ID.test(form.actorId.trim())) problems.actorId = "A user id is a whole number";
  if (form.targetUserId.trim() && !ID.test(form.targetUserId.trim())) {
    problems.targetUserId = "A user id is a whole number";
  }
  if (form.action.trim() && !/^[A-Za-z0-9._-]*$/.test(form.action.trim())) {
    problems.action = "An action holds letters, digits, dots, dashes and underscores";
  }
  if (dayRange(form.from, form.to) === null) problems.to = "The From date must be on or before the To date";
  return problems;
}

/**
 * The GraphQL filter for the form and the fixed parts (a user's trail), or null while the form has a
 * problem. Dates are whole days in the browser's time zone (To included).
 */
export function auditFilterVariables(
  form: AuditFilterForm,
  fixed: { targetUserId?: number; actorId?: number } = {},
): AuditFilter | null {
  if (Object.keys(auditFilterProblems(form)).length > 0) return null;
  const range = dayRange(form.from, form.to) ?? {};
  const filter: AuditFilter = {};
  if (form.area) filter.actionPrefix = form.area;
  const action = form.action.trim();
  if (action) filter.q = action;
  const actorId = fixed.actorId ?? (form.actorId.trim() ? Number(form.actorId.trim()) : undefined);
  if (actorId !== undefined) filter.actorId = actorId;
  const target =
    fixed.targetUserId ?? (form.targetUserId.trim() ? Number(form.targetUserId.trim()) : undefined);
  if (target !== undefined) filter.targetUserId = target;
  if (range.from) filter.from = range.from;
  if (range.to) filter.to = range.to;
  return filter;
}

/** Whether the form narrows the log (the empty state then says so). */
export function isAuditFiltered(form: AuditFilterForm): boolean {
  return Object.values(form).some((v) => v.trim() !== "");
}

/** The CSV export's address for a filter (its fields as query parameters). */
export function auditExportHref(filter: AuditFilter): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) {
    if (value !== null && value !== undefined && value !== "") params.set(key, String(value));
  }
  const query = params.toString();
  return query ? `${AUDIT_EXPORT_PATH}?${query}` : AUDIT_EXPORT_PATH;
}

/** A JSON value as a short text: strings as they are, others as JSON. */
function shortValue(value: unknown): string {
  if (value === null || value === undefined) return "none";
  if (typeof value === "string") return value;
  return JSON.stringify(value);
}

/**
 * How a change reads: "prospect → client" for plain values; for records, each field that changed
 * ("status: pending → confirmed"); empty when the entry holds no change.
 */
export function describeChange(before: unknown, after: unknown): string {
  if ((before === null || before === undefined) && (after === null || after === undefined)) return "";
  const isRecord = (v: unknown): v is Record<string, unknown> =>
    typeof v === "object" && v !== null && !Array.isArray(v);
  if (isRecord(before) || isRecord(after)) {
    const b = isRecord(before) ? before : {};
    const a = isRecord(after) ? after : {};
    const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
    const changed = keys.filter((k) => JSON.stringify(b[k]) !== JSON.stringify(a[k]));
    return (changed.length > 0 ? changed : keys)
      .map((k) => `${k}: ${shortValue(b[k])} → ${shortValue(a[k])}`)
      .join("; ");
  }
  return `${shortValue(before)} → ${shortValue(after)}`;
}

/** Who acted: their name, "user #id" when the name is gone, or "System / anonymous". */
export function actorLabel(entry: { actorId?: number | null; actorName?: string | null }): string {
  if (entry.actorName) return entry.actorName;
  return entry.actorId ? `User #${entry.actorId}` : "System or anonymous";
}

/** What was acted upon: the user's name, else "type #id", else nothing. */
export function targetLabel(entry: {
  targetType?: string | null;
  targetId?: string | null;
  targetName?: string | null;
}): string {
  if (entry.targetName) return entry.targetName;
  if (entry.targetType === "login_sha256") return "Unknown account";
  if (!entry.targetType) return "";
  return entry.targetId ? `${entry.targetType.replace(/_/g, " ")} #${entry.targetId}` : entry.targetType;
}
