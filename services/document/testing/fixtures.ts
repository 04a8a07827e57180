import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { crc32, deflateRawSync, deflateSync } from "node:zlib";
import type { KnownFileType } from "@schema/validation/document";

// Sample files for tests, built in code (no binary blobs in git): genuine files of every type the
// portal verifies, each the smallest real file of its kind (a PDF with a valid xref, a 1x1 PNG with
// its CRCs, a baseline JPEG a browser decodes, Office files as real zip archives...), and impostors:
// programs, web pages and archives dressed up with another extension, text that is not UTF-8.

// ---------------------------------------------------------------------------------------------
// zip (Office Open XML and OpenDocument are zip archives)

interface ZipEntry {
  name: string;
  data: string | Buffer;
  /** stored uncompressed (OpenDocument's "mimetype" must be) */
  store?: boolean;
}

/** A zip archive of `entries`, in order (deflated unless `store`). */
export function zip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, "utf8");
    const raw = Buffer.isBuffer(entry.data) ? entry.data : Buffer.from(entry.data, "utf8");
    const body = entry.store ? raw : deflateRawSync(raw);
    const method = entry.store ? 0 : 8;
    const crc = crc32(raw);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // flags: UTF-8 names
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(0, 10); // time
    local.writeUInt16LE(0x5b21, 12); // date: 2025-09-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(raw.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // made by
    central.writeUInt16LE(20, 6); // needed
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(0x5b21, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(raw.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

function ooxml(part: string, mainType: string, body: string): Buffer {
  return zip([
    {
      name: "[Content_Types].xml",
      data: `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/${part}" ContentType="${mainType}.main+xml"/></Types>`,
    },
    {
      name: "_rels/.rels",
      data: `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="${part}"/></Relationships>`,
    },
    { name: part, data: `${XML}${body}` },
  ]);
}

function opendocument(mime: string, body: string): Buffer {
  return zip([
    { name: "mimetype", data: mime, store: true },
    {
      name: "content.xml",
      data: `${XML}<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" office:version="1.3"><office:body>${body}</office:body></office:document-content>`,
    },
    {
      name: "META-INF/manifest.xml",
      data: `${XML}<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3"><manifest:file-entry manifest:full-path="/" manifest:media-type="${mime}"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>`,
    },
  ]);
}

// ---------------------------------------------------------------------------------------------
// images

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

function png(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0); // width
  header.writeUInt32BE(1, 4); // height
  header[8] = 8; // bit depth
  header[9] = 6; // colour type: RGBA
  // one scanline: filter type 0, then one teal pixel
  const pixels = deflateSync(Buffer.from([0, 0x13, 0x7c, 0xbd, 0xff]));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", pixels),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

function jpegSegment(marker: number, body: number[]): number[] {
  const length = body.length + 2;
  return [0xff, marker, length >> 8, length & 0xff, ...body];
}

/** A 1x1 grey baseline JPEG: one 8x8 block whose coefficients are all zero. */
function jpeg(): Buffer {
  const oneSymbolTable = (tableClass: number) => [tableClass, 1, ...new Array(15).fill(0), 0x00];
  return Buffer.from([
    0xff,
    0xd8, // SOI
    ...jpegSegment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, 0, 1, 0, 1, 0, 0]), // APP0 JFIF 1.1
    ...jpegSegment(0xdb, [0x00, ...new Array(64).fill(1)]), // DQT
    ...jpegSegment(0xc0, [8, 0, 1, 0, 1, 1, 1, 0x11, 0]), // SOF0: 8 bits, 1x1, one component
    ...jpegSegment(0xc4, oneSymbolTable(0x00)), // DHT DC 0: "0" → category 0
    ...jpegSegment(0xc4, oneSymbolTable(0x10)), // DHT AC 0: "0" → end of block
    ...jpegSegment(0xda, [1, 1, 0x00, 0, 63, 0]), // SOS
    0x3f, // DC "0", EOB "0", padded with ones
    0xff,
    0xd9, // EOI
  ]);
}

function gif(): Buffer {
  return Buffer.from([
    ...Buffer.from("GIF89a", "latin1"),
    1,
    0,
    1,
    0, // 1x1
    0x80,
    0,
    0, // global colour table of two entries
    0xff,
    0xff,
    0xff,
    0,
    0,
    0,
    0x2c,
    0,
    0,
    0,
    0,
    1,
    0,
    1,
    0,
    0, // image descriptor
    2,
    2,
    0x44,
    1,
    0, // LZW data
    0x3b, // trailer
  ]);
}

/** A 1x1 lossless WebP (VP8L). */
function webp(): Buffer {
  return Buffer.from("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==", "base64");
}

/** A 1x1 8-bit grey uncompressed TIFF (little-endian). */
function tiff(): Buffer {
  const entries: [number, number, number][] = [
    [256, 3, 1], // ImageWidth
    [257, 3, 1], // ImageLength
    [258, 3, 8], // BitsPerSample
    [259, 3, 1], // Compression: none
    [262, 3, 1], // Photometric: black is zero
    [273, 4, 0], // StripOffsets (set below)
    [277, 3, 1], // SamplesPerPixel
    [278, 3, 1], // RowsPerStrip
    [279, 4, 1], // StripByteCounts
  ];
  const ifdOffset = 8;
  const ifdSize = 2 + entries.length * 12 + 4;
  const pixelOffset = ifdOffset + ifdSize;
  const out = Buffer.alloc(pixelOffset + 1);
  out.write("II", 0, "latin1");
  out.writeUInt16LE(42, 2);
  out.writeUInt32LE(ifdOffset, 4);
  out.writeUInt16LE(entries.length, ifdOffset);
  entries.forEach(([tag, type, value], i) => {
    const at = ifdOffset + 2 + i * 12;
    out.writeUInt16LE(tag, at);
    out.writeUInt16LE(type, at + 2);
    out.writeUInt32LE(1, at + 4);
    if (type === 3) out.writeUInt16LE(value, at + 8);
    else out.writeUInt32LE(tag === 273 ? pixelOffset : value, at + 8);
  });
  out.writeUInt32LE(0, ifdOffset + 2 + entries.length * 12); // no next IFD
  out[pixelOffset] = 0x80;
  return out;
}

// ---------------------------------------------------------------------------------------------
// PDF, OLE, programs, text

/** How {@link samplePdf} writes its pages' text, and whether it marks the file as binary. */
export interface SamplePdfOptions {
  /** the text's size in points (12 unless given) */
  fontSize?: number;
  /** where the text starts on the 200×200 page ([10, 100] unless given) */
  at?: readonly [x: number, y: number];
  /** a second header line of bytes above 127 that tells readers the file is binary (none unless given) */
  binaryMarker?: boolean;
}

/**
 * A small well-formed PDF (header, objects, cross-reference table, trailer) with one 200×200 page per
 * entry of `pages`, each writing its text (letters, digits and spaces) in Helvetica, a standard font
 * it does not embed.
 */
export function samplePdf(pages: readonly string[], options: SamplePdfOptions = {}): Buffer {
  const { fontSize = 12, at: [x, y] = [10, 100], binaryMarker = false } = options;
  const objects = ["<< /Type /Catalog /Pages 2 0 R >>", ""];
  const kids: string[] = [];
  const fontId = 3 + pages.length * 2;
  pages.forEach((text, i) => {
    const pageId = 3 + i * 2;
    const content = `BT /F1 ${fontSize} Tf ${x} ${y} Td (${text}) Tj ET`;
    kids.push(`${pageId} 0 R`);
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents ${pageId + 1} 0 R /Resources << /Font << /F1 ${fontId} 0 R >> >> >>`,
      `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    );
  });
  objects[1] = `<< /Type /Pages /Kids [${kids.join(" ")}] /Count ${pages.length} >>`;
  objects.push("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
  let body = binaryMarker ? "%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n" : "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(body, "latin1"));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, "latin1");
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, "0")} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, "latin1");
}

/** A one-page PDF with a correct cross-reference table, marked binary. */
function pdf(): Buffer {
  return samplePdf(["Invoice"], { fontSize: 24, at: [30, 90], binaryMarker: true });
}

/** The 512-byte header of an OLE compound file (Word, Excel and PowerPoint 97-2003). */
function cfb(): Buffer {
  const out = Buffer.alloc(1536);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(out, 0);
  out.writeUInt16LE(0x003e, 24); // minor version
  out.writeUInt16LE(0x0003, 26); // major version 3
  out.writeUInt16LE(0xfffe, 28); // little-endian
  out.writeUInt16LE(9, 30); // 512-byte sectors
  out.writeUInt16LE(6, 32); // 64-byte mini sectors
  out.writeUInt32LE(1, 44); // one FAT sector
  out.writeUInt32LE(0xfffffffe, 48); // directory start: end of chain
  out.writeUInt32LE(4096, 56); // mini stream cutoff
  out.writeUInt32LE(0xfffffffe, 60);
  out.writeUInt32LE(0xfffffffe, 68);
  out.fill(0xff, 76, 512); // DIFAT: unused
  out.writeUInt32LE(0, 76); // the FAT is sector 0
  return out;
}

/** The 64-byte header of an x86-64 Linux executable. */
function elf(): Buffer {
  const out = Buffer.alloc(64);
  Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]).copy(out, 0);
  out.writeUInt16LE(2, 16); // ET_EXEC
  out.writeUInt16LE(0x3e, 18); // x86-64
  out.writeUInt32LE(1, 20);
  out.writeUInt16LE(64, 52);
  return out;
}

/** A Windows PE program's headers: "MZ", the DOS stub's pointer, "PE\0\0". */
function exe(): Buffer {
  const out = Buffer.alloc(256);
  out.write("MZ", 0, "latin1");
  out.writeUInt32LE(0x80, 0x3c);
  out.write("This program cannot be run in DOS mode.\r\r\n$", 0x4e, "latin1");
  out.write("PE\0\0", 0x80, "latin1");
  out.writeUInt16LE(0x8664, 0x84); // machine: x86-64
  return out;
}

const CSV = "Date,Description,Montant\n2026-01-05,Café crème,3.50\n2026-01-06,Müller & Søn,120.00\n";
const TXT = "Notes de réunion — 5 janvier 2026\nÉléments à fournir : relevés, reçus, déclaration.\n";

/** Every genuine fixture and every impostor, as fresh Buffers. */
export const fixtures = {
  pdf,
  png,
  jpg: jpeg,
  jpeg,
  gif,
  webp,
  tiff,
  tif: tiff,
  docx: () =>
    ooxml(
      "word/document.xml",
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Invoice</w:t></w:r></w:p></w:body></w:document>',
    ),
  xlsx: () =>
    ooxml(
      "xl/workbook.xml",
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheets/></workbook>',
    ),
  pptx: () =>
    ooxml(
      "ppt/presentation.xml",
      "application/vnd.openxmlformats-officedocument.presentationml.presentation",
      '<p:presentation xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"/>',
    ),
  odt: () =>
    opendocument(
      "application/vnd.oasis.opendocument.text",
      "<office:text><text:p>Invoice</text:p></office:text>",
    ),
  ods: () => opendocument("application/vnd.oasis.opendocument.spreadsheet", "<office:spreadsheet/>"),
  odp: () => opendocument("application/vnd.oasis.opendocument.presentation", "<office:presentation/>"),
  /** OLE compound files: file-type sees "cfb" for all three */
  doc: cfb,
  xls: cfb,
  ppt: cfb,
  csv: () => Buffer.from(CSV, "utf8"),
  txt: () => Buffer.from(TXT, "utf8"),

  // impostors and odd files
  /** a zip archive that is not Office Open XML (named .docx it must be refused) */
  fakeDocx: () => zip([{ name: "invoice.txt", data: "not a Word document" }]),
  /** plain text with NUL bytes in it */
  txtWithNul: () => Buffer.from("Line one\nLine\0two\n", "utf8"),
  /** a CSV written in Latin-1 (ISO-8859-1): not valid UTF-8 */
  latin1Csv: () => Buffer.from("Date,Description\n2026-01-05,Café crème brûlée\n", "latin1"),
  /** a UTF-8 text with a byte-order mark (still valid text) */
  txtWithBom: () => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(TXT, "utf8")]),
  /** a Windows program (PE) */
  exe,
  /** a Linux program (ELF) */
  elf,
  /** a web page with a script */
  html: () =>
    Buffer.from(
      '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Invoice</title></head><body><script>fetch("/api/me")</script></body></html>\n',
      "utf8",
    ),
  /** a PDF cut short: the header but no %%EOF */
  truncatedPdf: () => pdf().subarray(0, 200),
  /** a plain zip archive */
  zip: () => zip([{ name: "a.txt", data: "a" }]),
};

/** The genuine fixture of each type the portal verifies. */
export function genuineFixture(type: KnownFileType): Buffer {
  return fixtures[type]();
}

const made: string[] = [];

/**
 * Writes `data` to a new temporary directory as `name` and answers the file's path. Remove every
 * file written so with `removeFixtureFiles()` (after the tests).
 */
export async function writeFixture(data: Buffer, name = "fixture.bin"): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "doc-fixture-"));
  made.push(dir);
  const file = path.join(dir, name);
  await writeFile(file, data);
  return file;
}

/** Removes the temporary files `writeFixture` wrote. */
export async function removeFixtureFiles(): Promise<void> {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}
