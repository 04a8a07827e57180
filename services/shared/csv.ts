import { stringify } from "csv-stringify";

// CSV for spreadsheets (issue 11 exports, hardened in issue 20): every cell is quoted, and a formula
// character is neutralised wherever a spreadsheet could start a cell, not only at the cell's start
// (OWASP, CSV injection). A spreadsheet that splits on another separator than the comma (`;` in
// many locales, or a tab) could otherwise open `Co1;=1+1` as two cells, the second a formula. Rows
// are streamed so an export of a million rows holds only a batch in memory.

/** What a spreadsheet reads as the start of a formula: = + - @, a tab, a CR, and the full-width = + - @. */
const FORMULA_CHARS = "=+\\-@\\t\\r\\uFF1D\\uFF0B\\uFF0D\\uFF20";

/**
 * Where a spreadsheet may start a cell inside a value: its start, and after any separator a
 * spreadsheet splits on (comma, semicolon, tab, pipe, line ends), spaces allowed before the formula.
 */
const CELL_START = new RegExp(`(?<=^|[,;\\t|\\r\\n])(?=[ ]*[${FORMULA_CHARS}])`, "g");

/**
 * A cell that a spreadsheet shows as text: wherever a spreadsheet could start a cell (the value's
 * start, or after a `,` `;` tab `|` or line end) before `=`, `+`, `-`, `@`, a tab or a carriage
 * return (or a full-width = + - @), an apostrophe is put in. null and undefined are empty cells;
 * dates are ISO 8601.
 */
export function csvSafeCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  const text = value instanceof Date ? value.toISOString() : String(value);
  return text.replace(CELL_START, "'");
}

/**
 * A CSV stringifier (csv-stringify) with a header row, every cell quoted; write rows of raw values,
 * each text cell is passed through {@link csvSafeCell}. Pipe it to the answer. Every CSV the portal
 * exports is written by it.
 */
export function csvWriter(columns: readonly string[]) {
  return stringify({
    header: true,
    columns: columns.map((c) => ({ key: c, header: csvSafeCell(c) })),
    quoted: true,
    quoted_empty: true,
    cast: {
      string: (v) => csvSafeCell(v),
      number: (v) => String(v),
      bigint: (v) => String(v),
      boolean: (v) => (v ? "true" : "false"),
      date: (v) => v.toISOString(),
      object: (v) => csvSafeCell(JSON.stringify(v)),
    },
  });
}
