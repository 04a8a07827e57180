import { open } from "node:fs/promises";
import { DOCUMENT_MESSAGES, KNOWN_FILE_TYPE_NAMES, KNOWN_FILE_TYPES } from "@schema/validation/document";
import fc from "fast-check";
import { sniffFile, TextCheck, type TextVerdict } from "./sniff";
import { fixtures, genuineFixture, removeFixtureFiles, writeFixture } from "./testing/fixtures";

afterAll(removeFixtureFiles);

async function sniff(data: Buffer, extension: Parameters<typeof sniffFile>[1]) {
  return sniffFile(await writeFixture(data, `upload.${extension}`), extension);
}

describe("sniffFile", () => {
  it.each(KNOWN_FILE_TYPE_NAMES)("accepts a genuine .%s file with its content type", async (type) => {
    expect(await sniff(genuineFixture(type), type)).toEqual({ ok: true, mimeType: KNOWN_FILE_TYPES[type] });
  });

  it("accepts UTF-8 text with a byte-order mark, and an HTML page named .txt (it is text)", async () => {
    expect(await sniff(fixtures.txtWithBom(), "txt")).toEqual({ ok: true, mimeType: "text/plain" });
    expect(await sniff(fixtures.html(), "txt")).toEqual({ ok: true, mimeType: "text/plain" });
  });

  const spoofed = [
    [
      "a Windows program",
      fixtures.exe(),
      "pdf",
      "The file's content is not a PDF document (it looks like a Windows program)",
    ],
    [
      "a Linux program",
      fixtures.elf(),
      "pdf",
      "The file's content is not a PDF document (it looks like a Linux program)",
    ],
    [
      "an HTML page",
      fixtures.html(),
      "pdf",
      "The file's content is not a PDF document (it looks like an HTML page)",
    ],
    ["a PNG", fixtures.png(), "pdf", "The file's content is not a PDF document (it looks like a PNG image)"],
    [
      "a zip that is not Office Open XML",
      fixtures.fakeDocx(),
      "docx",
      "The file's content is not a Word document (.docx): it is not an Office Open XML file",
    ],
    [
      "a text file",
      fixtures.txt(),
      "docx",
      "The file's content is not a Word document (.docx): it is not an Office Open XML file",
    ],
    [
      "a workbook",
      fixtures.xlsx(),
      "docx",
      "The file's content is not a Word document (.docx) (it looks like an Excel workbook (.xlsx))",
    ],
    [
      "an OpenDocument text",
      fixtures.odt(),
      "docx",
      "The file's content is not a Word document (.docx) (it looks like an OpenDocument text (.odt))",
    ],
    [
      "a Word document",
      fixtures.docx(),
      "odt",
      "The file's content is not an OpenDocument text (.odt) (it looks like a Word document (.docx))",
    ],
    [
      "a plain zip",
      fixtures.zip(),
      "ods",
      "The file's content is not an OpenDocument spreadsheet (.ods): it is not an OpenDocument file",
    ],
    [
      "a .docx",
      fixtures.docx(),
      "doc",
      "The file's content is not a Word 97-2003 document (.doc) (it looks like a Word document (.docx))",
    ],
    [
      "a Windows program",
      fixtures.exe(),
      "xls",
      "The file's content is not an Excel 97-2003 workbook (.xls) (it looks like a Windows program)",
    ],
    ["a JPEG", fixtures.jpg(), "png", "The file's content is not a PNG image (it looks like a JPEG image)"],
    ["a GIF", fixtures.gif(), "jpg", "The file's content is not a JPEG image (it looks like a GIF image)"],
    ["text", fixtures.txt(), "webp", "The file's content is not a WebP image (it looks like a text file)"],
    [
      "an OLE file",
      fixtures.doc(),
      "tiff",
      "The file's content is not a TIFF image (it looks like a Microsoft Office 97-2003 file)",
    ],
    [
      "a text with NUL bytes",
      fixtures.txtWithNul(),
      "txt",
      "The text file contains NUL bytes: it is not plain text",
    ],
    ["a Latin-1 CSV", fixtures.latin1Csv(), "csv", "The text file is not valid UTF-8 text"],
    [
      "a program",
      fixtures.exe(),
      "txt",
      "The file's content is not a text file (it looks like a Windows program)",
    ],
    ["a PDF", fixtures.pdf(), "csv", "The file's content is not a CSV file (it looks like a PDF document)"],
    [
      "a PDF cut short",
      fixtures.truncatedPdf(),
      "pdf",
      "The file's content is not a complete PDF document: its end is missing",
    ],
    ["an empty file", Buffer.alloc(0), "pdf", DOCUMENT_MESSAGES.emptyFile],
  ] as const;

  it.each(spoofed.map(([what, data, extension, message]) => [what, extension, data, message] as const))(
    "refuses %s named .%s",
    async (_what, extension, data, message) => {
      expect(await sniff(data, extension)).toEqual({ ok: false, message });
    },
  );

  it("checks text across chunk boundaries: a character split between two reads is fine, a late NUL is found", async () => {
    // "é" is two bytes: the first ends one 64 KiB read, the second starts the next
    const split = Buffer.concat([Buffer.alloc(64 * 1024 - 1, "a"), Buffer.from("é\n")]);
    expect(await sniff(split, "txt")).toEqual({ ok: true, mimeType: "text/plain" });
    const lateNul = Buffer.concat([Buffer.alloc(3 * 1024 * 1024, "b"), Buffer.from([0])]);
    expect(await sniff(lateNul, "csv")).toEqual({
      ok: false,
      message: "The text file contains NUL bytes: it is not plain text",
    });
    const lateLatin1 = Buffer.concat([Buffer.alloc(1024 * 1024, "c"), Buffer.from("caf\xe9", "latin1")]);
    expect((await sniff(lateLatin1, "txt")).ok).toBe(false);
  });

  it("reads only the head and tail of a 5 GB PDF (a sparse file)", async () => {
    const file = await writeFixture(Buffer.from("%PDF-1.7\n"), "huge.pdf");
    const handle = await open(file, "r+");
    const size = 5 * 1024 ** 3;
    await handle.truncate(size);
    await handle.write(Buffer.from("\n%%EOF\n"), 0, 7, size - 7);
    await handle.close();
    const started = Date.now();
    expect(await sniffFile(file, "pdf")).toEqual({ ok: true, mimeType: "application/pdf" });
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe("TextCheck (the streamed UTF-8 check)", () => {
  /** The reference verdict: the WHATWG decoder in fatal mode over the whole input at once. */
  function reference(bytes: Uint8Array): TextVerdict {
    if (bytes.includes(0)) return "nul";
    try {
      new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      return "ok";
    } catch {
      return "utf8";
    }
  }

  // text with accents, CJK and emoji, sometimes with a byte changed, cut into arbitrary pieces
  const inputs = fc
    .tuple(
      fc.string({ unit: "binary", maxLength: 200 }),
      fc.option(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 }))),
      fc.array(fc.nat({ max: 600 }), { maxLength: 8 }),
    )
    .map(([text, mutation, cuts]) => {
      const bytes = Buffer.from(text.replaceAll("\u0000", ""), "utf8");
      if (mutation && bytes.length > 0) bytes[mutation[0] % bytes.length] = mutation[1];
      const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
      const pieces: Buffer[] = [];
      let from = 0;
      for (const point of [...points, bytes.length]) {
        pieces.push(bytes.subarray(from, point));
        from = point;
      }
      return { bytes, pieces };
    });

  it("agrees with a fatal TextDecoder over the whole input, however the bytes are cut", () => {
    fc.assert(
      fc.property(inputs, ({ bytes, pieces }) => {
        const check = new TextCheck();
        for (const piece of pieces) check.update(piece);
        expect(check.finish()).toBe(reference(bytes));
      }),
      { numRuns: 2000 },
    );
  });

  it("refuses a character cut off at the very end and one split across pieces that goes wrong", () => {
    const euro = Buffer.from("€", "utf8"); // e2 82 ac
    const cutShort = new TextCheck();
    cutShort.update(Buffer.from("Total 12"));
    cutShort.update(euro.subarray(0, 2));
    expect(cutShort.finish()).toBe("utf8");

    const split = new TextCheck();
    split.update(euro.subarray(0, 1));
    split.update(euro.subarray(1, 2));
    split.update(euro.subarray(2));
    expect(split.finish()).toBe("ok");

    const broken = new TextCheck();
    broken.update(euro.subarray(0, 2));
    broken.update(Buffer.from("A"));
    expect(broken.finish()).toBe("utf8");
  });
});
