import { parse } from "csv-parse/sync";
import { csvSafeCell, csvWriter } from "./csv";

async function render(columns: string[], rows: Record<string, unknown>[]): Promise<string> {
  const writer = csvWriter(columns);
  const chunks: string[] = [];
  writer.on("data", (c: Buffer) => chunks.push(c.toString()));
  const done = new Promise((resolve) => writer.on("end", resolve));
  for (const row of rows) writer.write(row);
  writer.end();
  await done;
  return chunks.join("");
}

/** Cells an attacker would put in a company name, a note or an address. */
const HOSTILE = [
  "Co1;=1+1",
  "Co2,=1+1",
  "Co3\t=1+1",
  "Co4|=1+1",
  "Co5; +SUM(A1)",
  "\t=1+1",
  "\r=1+1",
  "@SUM(A1:A9)",
  "-2+3",
  "+41 22 000 00 00",
  '=HYPERLINK("http://evil.example","x")',
  "He said \"hi\"\n=cmd|' /C calc'!A0",
  "line one\r\n@SUM(1)",
  "\uFF1D1+1",
];

/**
 * Whether a spreadsheet could find a formula in `csv` when it splits on any separator (`,` `;` tab
 * `|`, line ends) and ignores the quotes: a formula character where a cell could start, after an
 * optional opening quote and spaces.
 */
function formulaWhereACellStarts(csv: string): string | null {
  const found = /(?:^|[,;\t|\r\n])"?[ ]*[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/.exec(csv);
  return found ? JSON.stringify(csv.slice(Math.max(0, found.index - 10), found.index + 10)) : null;
}

describe("CSV cells", () => {
  it("escapes a formula at the start of a cell", () => {
    for (const start of ["=", "+", "-", "@", "\t", "\r", "\uFF1D", "\uFF20"]) {
      expect(csvSafeCell(`${start}HYPERLINK("http://x")`)).toBe(`'${start}HYPERLINK("http://x")`);
    }
    expect(csvSafeCell("Ann")).toBe("Ann");
    expect(csvSafeCell("Smith - Jones")).toBe("Smith - Jones");
    expect(csvSafeCell(null)).toBe("");
    expect(csvSafeCell(new Date("2026-01-02T03:04:05.000Z"))).toBe("2026-01-02T03:04:05.000Z");
  });

  it("escapes a formula wherever a spreadsheet splitting on ; , tab | or a line end would start a cell", () => {
    expect(csvSafeCell("Co1;=1+1")).toBe("Co1;'=1+1");
    expect(csvSafeCell("Co2,=1+1")).toBe("Co2,'=1+1");
    expect(csvSafeCell("Co3\t=1+1")).toBe("Co3\t'=1+1");
    expect(csvSafeCell("Co5; +SUM(A1)")).toBe("Co5;' +SUM(A1)");
    expect(csvSafeCell("\t=1+1")).toBe("'\t'=1+1");
    expect(csvSafeCell("line one\r\n@SUM(1)")).toBe("line one\r\n'@SUM(1)");
    expect(csvSafeCell("-2+3")).toBe("'-2+3");
  });

  it("quotes every cell, header included, and leaves no formula where any separator starts a cell", async () => {
    const rows = HOSTILE.map((company, i) => ({ id: i + 1, company, verified: i % 2 === 0, note: null }));
    const text = await render(["id", "company", "verified", "note"], rows);
    expect(formulaWhereACellStarts(text)).toBeNull();
    const lines = text.split("\n");
    expect(lines[0]).toBe('"id","company","verified","note"');
    expect(lines[1]).toBe('"1","Co1;\'=1+1","true",""');
    // a comma-splitting reader that honours quotes gets each value back, escaped and nothing else
    const parsed = parse(text, { columns: true }) as Record<string, string>[];
    expect(parsed.map((r) => r.company)).toEqual(HOSTILE.map(csvSafeCell));
  });

  it("doubles embedded quotes and keeps line breaks inside the quoted cell", async () => {
    const text = await render(
      ["firstName", "company", "createdAt"],
      [
        {
          firstName: '=HYPERLINK("http://evil.example","x")',
          company: 'Smith, "Jones"\n& Co',
          createdAt: new Date("2026-01-02T00:00:00.000Z"),
        },
      ],
    );
    expect(text).toBe(
      '"firstName","company","createdAt"\n"\'=HYPERLINK(""http://evil.example"",""x"")","Smith, ""Jones""\n& Co","2026-01-02T00:00:00.000Z"\n',
    );
  });
});
