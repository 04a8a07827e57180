import { stringify } from "csv-stringify";

// CSV for spreadsheets (issue 11 exports): every cell a spreadsheet could read as a formula is
// escaped (OWASP, CSV injection), and rows are streamed so an export of a million rows holds only
// a batch in memory.

const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A cell that a spreadsheet shows as text: a value starting with `=`, `+`, `-`, `@`, a tab or a
 * carriage return gets a leading apostrophe. null and undefined are empty cells; dates are ISO 8601.
 */
export function csvSafeCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  const text = value instanceof Date ? value.toISOString() : String(value);
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/**
 * A CSV stringifier (csv-stringify) with a header row; write rows of raw values, each cell is passed
 * through {@link csvSafeCell}. Pipe it to the answer.
 */
export function csvWriter(columns: readonly string[]) {
  return stringify({
    header: true,
    columns: columns.map((c) => ({ key: c, header: c })),
    cast: {
      string: (v) => csvSafeCell(v),
      number: (v) => String(v),
      boolean: (v) => (v ? "true" : "false"),
      date: (v) => v.toISOString(),
      object: (v) => csvSafeCell(JSON.stringify(v)),
    },
  });
}
