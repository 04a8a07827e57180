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

describe("CSV cells", () => {
  it("escapes every cell a spreadsheet would run as a formula", () => {
    for (const start of ["=", "+", "-", "@", "\t", "\r"]) {
      expect(csvSafeCell(`${start}HYPERLINK("http://x")`)).toBe(`'${start}HYPERLINK("http://x")`);
    }
    expect(csvSafeCell("Ann")).toBe("Ann");
    expect(csvSafeCell(null)).toBe("");
    expect(csvSafeCell(new Date("2026-01-02T03:04:05.000Z"))).toBe("2026-01-02T03:04:05.000Z");
  });

  it("writes a header and quotes what CSV must quote, with formulas escaped", async () => {
    const text = await render(
      ["firstName", "company", "verified", "createdAt"],
      [
        {
          firstName: '=HYPERLINK("http://evil.example","x")',
          company: "Smith, Jones & Co",
          verified: true,
          createdAt: new Date("2026-01-02T00:00:00.000Z"),
        },
      ],
    );
    expect(text).toBe(
      'firstName,company,verified,createdAt\n"\'=HYPERLINK(""http://evil.example"",""x"")","Smith, Jones & Co",true,2026-01-02T00:00:00.000Z\n',
    );
  });
});
