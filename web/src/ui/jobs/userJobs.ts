import type {
  UserBulkAction,
  UserJobFieldsFragment,
  UserJobItemOutcome,
  UserType,
} from "@web/generated/graphql";

// The logic of the create, bulk and import dialogs apart from React (issue 11): labels, the
// confirmation's sentence, a job's progress, and the answers of the mutations.

/** How often a dialog asks for a job while it is queued or running. */
export const USER_JOB_POLL_MS = 1000;

/** How each user type reads in a select. */
export const USER_TYPE_LABELS: Record<UserType, string> = {
  prospect: "Prospect",
  user: "User (client access requested)",
  client: "Client",
  userAdmin: "User administrator",
  mainAdmin: "Main administrator",
};

/** The bulk actions, in the order the dialog offers them, with their names. */
export const BULK_ACTION_LABELS: Record<UserBulkAction, string> = {
  setStatus: "Set status",
  setType: "Set user type",
  setAccessLevel: "Set access level",
  resendVerification: "Resend verification email",
};

/** The values a set action offers (resendVerification has none). */
export const BULK_VALUES: Record<Exclude<UserBulkAction, "resendVerification">, readonly string[]> = {
  setStatus: ["active", "inactive", "archived"],
  setType: ["prospect", "user", "client", "userAdmin", "mainAdmin"],
  setAccessLevel: ["full", "limited"],
};

/** "1 user", "5,000 users". */
export function usersCount(count: number): string {
  return `${count.toLocaleString("en-US")} ${count === 1 ? "user" : "users"}`;
}

/** The confirmation's question: "Change the status of 5,000 users to inactive?" */
export function confirmQuestion(action: UserBulkAction, value: string, count: number): string {
  const users = usersCount(count);
  switch (action) {
    case "setStatus":
      return `Change the status of ${users} to ${value}?`;
    case "setType":
      return `Change the user type of ${users} to ${value}?`;
    case "setAccessLevel":
      return `Change the access level of ${users} to ${value}?`;
    case "resendVerification":
      return `Resend the verification email to ${users}?`;
  }
}

/** Whether a job is still at work. */
export function isJobRunning(job: Pick<UserJobFieldsFragment, "status">): boolean {
  return job.status === "queued" || job.status === "running";
}

/** A job's progress as a sentence: "1,200 of 5,000 users · 3 skipped · 0 failed". */
export function jobProgressLabel(job: UserJobFieldsFragment): string {
  const noun = job.kind === "import" ? "rows" : "users";
  const parts = [`${job.processed.toLocaleString("en-US")} of ${job.total.toLocaleString("en-US")} ${noun}`];
  parts.push(`${job.done.toLocaleString("en-US")} ${job.kind === "import" ? "invited" : "changed"}`);
  if (job.skipped > 0) parts.push(`${job.skipped.toLocaleString("en-US")} skipped`);
  if (job.failed > 0) parts.push(`${job.failed.toLocaleString("en-US")} failed`);
  return parts.join(" · ");
}

/** How each outcome of a job's item reads. */
export const OUTCOME_LABELS: Record<UserJobItemOutcome, string> = {
  pending: "Waiting",
  changed: "Changed",
  skipped: "Skipped",
  failed: "Failed",
};

/** A typed answer of a mutation that may refuse fields by name. */
export type FieldsAnswer<T> =
  | { __typename?: string; data: T }
  | { __typename?: string; message: string; fields: { field: string; message: string }[] }
  | { __typename?: string; message: string; code?: string };

/** What a mutation answered: the data, or a message and the fields it refused. */
export type FieldsOutcome<T> =
  | { ok: true; data: T }
  | { ok: false; message: string; fields: { field: string; message: string }[] };

/** Reads a typed answer into data or a refusal with its fields ({} when none names a field). */
export function readFieldsAnswer<T>(
  answer: FieldsAnswer<T> | null | undefined,
  fallback: string,
): FieldsOutcome<T> {
  if (!answer) return { ok: false, message: fallback, fields: [] };
  if ("data" in answer) return { ok: true, data: answer.data };
  return { ok: false, message: answer.message || fallback, fields: "fields" in answer ? answer.fields : [] };
}

/** The answer of POST /api/admin/users/import. */
export interface ImportReport {
  dryRun: boolean;
  totalRows: number;
  acceptedRows: number;
  rejectedRows: number;
  errors: { row: number; field: string; message: string }[];
  job: { id: number } | null;
}

/** The column names of an import file's header row. */
export const IMPORT_HEADER = "firstName,lastName,username,email,phone,companyName";
