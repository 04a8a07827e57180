import {
  IMPORT_COLUMNS,
  IMPORT_MAX_BYTES,
  IMPORT_MAX_ROWS,
  type NewUser,
  newUserFieldsSchema,
} from "@schema/validation/userAdmin";
import { AppError } from "@services/shared/errors";
import { CsvError, parse } from "csv-parse/sync";
import { type AdminCommandProps } from "../changeUserAccount";
import { EMAIL_TAKEN_MESSAGE, USERNAME_TAKEN_MESSAGE } from "../takenNames";
import { startImportJob, type UserJobView } from "./userJobs";

/** One problem of one row of an import file (row 1 is the header). */
export interface ImportRowError {
  row: number;
  field: string;
  message: string;
}

/** What an import (or its dry run) found, and the job that creates the accepted rows. */
export interface ImportReport {
  dryRun: boolean;
  totalRows: number;
  acceptedRows: number;
  rejectedRows: number;
  errors: ImportRowError[];
  /** the job creating and inviting the accepted rows (null in a dry run, or when none is accepted) */
  job: UserJobView | null;
}

const MAX_ERRORS = 5000;

/** The file's rows, the header checked. @throws AppError PAYLOAD_TOO_LARGE, VALIDATION_FAILED. */
function readRows(csv: string): Record<string, string>[] {
  if (Buffer.byteLength(csv, "utf8") > IMPORT_MAX_BYTES) {
    throw new AppError(
      "PAYLOAD_TOO_LARGE",
      "The file is larger than 2 MB. Please split it into smaller files.",
    );
  }
  let records: string[][];
  try {
    records = parse(csv, { bom: true, skip_empty_lines: true, relax_column_count: true });
  } catch (err) {
    const line = err instanceof CsvError && typeof err.lines === "number" ? ` (line ${err.lines})` : "";
    throw new AppError(
      "VALIDATION_FAILED",
      `The file could not be read as CSV${line}. Please check its quotes.`,
    );
  }
  const [header, ...rows] = records;
  const names = (header ?? []).map((h) => h.trim());
  const missing = IMPORT_COLUMNS.filter((c) => !names.includes(c));
  if (!header || missing.length > 0) {
    throw new AppError(
      "VALIDATION_FAILED",
      `The first row must name the columns ${IMPORT_COLUMNS.join(",")} (missing: ${missing.join(", ")})`,
    );
  }
  if (rows.length === 0) throw new AppError("VALIDATION_FAILED", "The file has no rows under its header");
  if (rows.length > IMPORT_MAX_ROWS) {
    throw new AppError(
      "PAYLOAD_TOO_LARGE",
      `The file has ${rows.length.toLocaleString("en-US")} rows; at most ${IMPORT_MAX_ROWS.toLocaleString("en-US")} can be imported at once.`,
    );
  }
  return rows.map((cells) =>
    Object.fromEntries(IMPORT_COLUMNS.map((c) => [c, cells[names.indexOf(c)] ?? ""])),
  );
}

/**
 * Imports clients from a CSV file (header firstName,lastName,username,email,phone,companyName; at
 * most 5,000 rows and 2 MB): every row is checked with the registration's rules and words, for
 * usernames and emails repeated in the file, and against existing accounts. A dry run only reports;
 * a real run starts a job that creates the accepted rows as clients and invites each (rows with
 * errors are left out). Only an administrator who may grant the client type imports.
 * @throws AppError PAYLOAD_TOO_LARGE, VALIDATION_FAILED (not CSV, wrong header), FORBIDDEN,
 * RATE_LIMITED (too many open jobs).
 */
export async function importClients(
  props: AdminCommandProps & { csv: string; dryRun: boolean },
): Promise<ImportReport> {
  if (props.actor.userType !== "mainAdmin" && props.actor.userType !== "userAdmin") {
    throw new AppError("FORBIDDEN", "You don't have the necessary permissions to access this area.");
  }
  const rows = readRows(props.csv);
  const errors: ImportRowError[] = [];
  const accepted: { row: number; data: Omit<NewUser, "userType"> }[] = [];
  const seenUsername = new Map<string, number>();
  const seenEmail = new Map<string, number>();
  /**
   * Whether `value` of `row` (case aside) is the file's first: records it in `seen` (value → row)
   * when it is, and an error at `field` naming the first row when it is not.
   */
  const firstOccurrence = (
    seen: Map<string, number>,
    value: string,
    row: number,
    field: string,
    label: string,
  ): boolean => {
    const key = value.toLowerCase();
    const first = seen.get(key);
    if (first === undefined) {
      seen.set(key, row);
      return true;
    }
    errors.push({
      row,
      field,
      message: `${label} appears more than once in the file (first on row ${first})`,
    });
    return false;
  };
  const parsedRows = rows.map((raw, i) => {
    const row = i + 2;
    const result = newUserFieldsSchema.safeParse(raw);
    if (!result.success) {
      for (const issue of result.error.issues) {
        errors.push({ row, field: String(issue.path[0] ?? "row"), message: issue.message });
      }
      return { row, data: null };
    }
    const data = result.data;
    // both checked, so a row taken twice over says so for each field
    const usernameNew = firstOccurrence(seenUsername, data.username, row, "username", "Username");
    const emailNew = firstOccurrence(seenEmail, data.email, row, "email", "Email");
    return { row, data: usernameNew && emailNew ? data : null };
  });
  const valid = parsedRows.filter(
    (r): r is { row: number; data: Omit<NewUser, "userType"> } => r.data !== null,
  );
  const existing = await props.db.prisma.$queryRaw<{ username: string; email: string }[]>`
    SELECT lower(username) AS username, lower(email) AS email FROM users
    WHERE lower(username) = ANY(${valid.map((r) => r.data.username.toLowerCase())}::text[])
       OR lower(email) = ANY(${valid.map((r) => r.data.email.toLowerCase())}::text[])`;
  const takenUsernames = new Set(existing.map((e) => e.username));
  const takenEmails = new Set(existing.map((e) => e.email));
  for (const r of valid) {
    let ok = true;
    if (takenUsernames.has(r.data.username.toLowerCase())) {
      errors.push({ row: r.row, field: "username", message: USERNAME_TAKEN_MESSAGE });
      ok = false;
    }
    if (takenEmails.has(r.data.email.toLowerCase())) {
      errors.push({ row: r.row, field: "email", message: EMAIL_TAKEN_MESSAGE });
      ok = false;
    }
    if (ok) accepted.push(r);
  }
  // by row, then in the file's column order
  const column = (field: string) => {
    const i = (IMPORT_COLUMNS as readonly string[]).indexOf(field);
    return i < 0 ? IMPORT_COLUMNS.length : i;
  };
  errors.sort((a, b) => a.row - b.row || column(a.field) - column(b.field));
  const report: ImportReport = {
    dryRun: props.dryRun,
    totalRows: rows.length,
    acceptedRows: accepted.length,
    rejectedRows: rows.length - accepted.length,
    errors: errors.slice(0, MAX_ERRORS),
    job: null,
  };
  if (props.dryRun || accepted.length === 0) return report;
  const job = await startImportJob({
    db: props.db,
    actor: props.actor,
    rows: accepted,
    rejected: report.rejectedRows,
    ip: props.ip,
  });
  return { ...report, job };
}
