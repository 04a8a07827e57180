import { isUtf8 } from "node:buffer";
import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { DOCUMENT_MESSAGES, KNOWN_FILE_TYPES, type KnownFileType } from "@schema/validation/document";
import { fileTypeFromFile } from "file-type";

// Checks that a file's bytes are what its extension says (issue 9: the browser's content type is
// never trusted). Binary formats by their signature and structure (file-type, which reads only the
// bytes it needs, and looks inside zip archives for Office Open XML and OpenDocument); PDF by its
// header and end-of-file marker; text as UTF-8 without NUL bytes, streamed. A refusal says why, in
// words for the person who sent the file.

export type SniffResult = { ok: true; mimeType: string } | { ok: false; message: string };

type Detected = { ext: string; mime: string } | undefined;

/** What each known type is called in a message ("is not a PDF document"). */
const TYPE_NAMES: Record<KnownFileType, string> = {
  pdf: "a PDF document",
  doc: "a Word 97-2003 document (.doc)",
  docx: "a Word document (.docx)",
  xls: "an Excel 97-2003 workbook (.xls)",
  xlsx: "an Excel workbook (.xlsx)",
  ppt: "a PowerPoint 97-2003 presentation (.ppt)",
  pptx: "a PowerPoint presentation (.pptx)",
  odt: "an OpenDocument text (.odt)",
  ods: "an OpenDocument spreadsheet (.ods)",
  odp: "an OpenDocument presentation (.odp)",
  csv: "a CSV file",
  txt: "a text file",
  png: "a PNG image",
  jpg: "a JPEG image",
  jpeg: "a JPEG image",
  gif: "a GIF image",
  webp: "a WebP image",
  tif: "a TIFF image",
  tiff: "a TIFF image",
};

/** What file-type's findings are called when a file turns out to be something else. */
const DETECTED_NAMES: Record<string, string> = {
  exe: "a Windows program",
  elf: "a Linux program",
  macho: "a macOS program",
  "mach-o": "a macOS program",
  msi: "a Windows installer",
  apk: "an Android app",
  jar: "a Java program",
  class: "a Java program",
  wasm: "a WebAssembly program",
  zip: "a ZIP archive",
  rar: "a RAR archive",
  "7z": "a 7-Zip archive",
  gz: "a gzip archive",
  bz2: "a bzip2 archive",
  xz: "an xz archive",
  tar: "a tar archive",
  cfb: "a Microsoft Office 97-2003 file",
  xml: "an XML file",
  svg: "an SVG image",
  ps: "a PostScript file",
  rtf: "a Rich Text document",
  mp3: "an audio file",
  mp4: "a video file",
};

const PDF_TAIL_BYTES = 1024;
const HEAD_BYTES = 512;
const OOXML: readonly KnownFileType[] = ["docx", "xlsx", "pptx"];
const ODF: readonly KnownFileType[] = ["odt", "ods", "odp"];
const OLE: readonly KnownFileType[] = ["doc", "xls", "ppt"];
const TEXT: readonly KnownFileType[] = ["txt", "csv"];
/** file-type's extension for each image type */
const IMAGE_EXT: Partial<Record<KnownFileType, string>> = {
  png: "png",
  jpg: "jpg",
  jpeg: "jpg",
  gif: "gif",
  webp: "webp",
  tif: "tif",
  tiff: "tif",
};

/** A part of the file: `length` bytes from `position` (negative: from the end). */
async function readRange(filePath: string, length: number, fromEnd = false): Promise<Buffer> {
  const handle = await open(filePath, "r");
  try {
    const { size } = await handle.stat();
    const count = Math.min(length, size);
    const buffer = Buffer.alloc(count);
    await handle.read(buffer, 0, count, fromEnd ? size - count : 0);
    return buffer;
  } finally {
    await handle.close();
  }
}

function looksLikeHtml(head: Buffer): boolean {
  const text = head
    .toString("latin1")
    .replace(/^\uFEFF|^\u00EF\u00BB\u00BF/, "")
    .trimStart()
    .toLowerCase();
  return /^(<!doctype html|<html|<head|<body|<script|<iframe|<meta|<title|<!--)/.test(text);
}

/** What the file looks like, for a refusal: "an HTML page", "a Windows program"... */
function describe(detected: Detected, head: Buffer): string {
  if (detected) {
    const known = Object.entries(TYPE_NAMES).find(
      ([type]) => type === detected.ext || KNOWN_FILE_TYPES[type as KnownFileType] === detected.mime,
    );
    if (known) return known[1];
    return DETECTED_NAMES[detected.ext] ?? `a .${detected.ext} file`;
  }
  if (looksLikeHtml(head)) return "an HTML page";
  if (head.length > 0 && !head.includes(0) && isValidUtf8(head, true)) return "a text file";
  return "data of an unknown kind";
}

function isValidUtf8(bytes: Buffer, partial: boolean): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream: partial });
    return true;
  } catch {
    return false;
  }
}

function refuse(type: KnownFileType, what: string): SniffResult {
  return { ok: false, message: `The file's content is not ${TYPE_NAMES[type]} (it looks like ${what})` };
}

async function sniffPdf(filePath: string, detected: Detected, head: Buffer): Promise<SniffResult> {
  if (!head.subarray(0, 5).equals(Buffer.from("%PDF-", "latin1")))
    return refuse("pdf", describe(detected, head));
  const tail = await readRange(filePath, PDF_TAIL_BYTES, true);
  if (!tail.includes("%%EOF", 0, "latin1")) {
    return { ok: false, message: "The file's content is not a complete PDF document: its end is missing" };
  }
  return { ok: true, mimeType: KNOWN_FILE_TYPES.pdf };
}

function sniffPackage(type: KnownFileType, detected: Detected, head: Buffer): SniffResult {
  if (detected?.ext === type) return { ok: true, mimeType: detected.mime };
  const family = OOXML.includes(type) ? "an Office Open XML file" : "an OpenDocument file";
  const isOffice = detected && (OOXML.some((t) => t === detected.ext) || ODF.some((t) => t === detected.ext));
  if (!detected || detected.ext === "zip" || (!isOffice && detected.mime === "application/zip")) {
    return { ok: false, message: `The file's content is not ${TYPE_NAMES[type]}: it is not ${family}` };
  }
  return refuse(type, describe(detected, head));
}

/** What the text check found: nothing wrong, a NUL byte, or bytes that are not UTF-8. */
export type TextVerdict = "ok" | "nul" | "utf8";

/**
 * The text check fed chunk by chunk (valid UTF-8 all through, no NUL byte), so it can run while the
 * bytes arrive (the upload's file store) or over a file read once. Node's `isUtf8` (simdutf) checks
 * each chunk; a character cut by a chunk's end is carried over to the next one.
 */
export class TextCheck {
  private problem: TextVerdict = "ok";
  /** the start of a character the last chunk ended inside of (at most 3 bytes) */
  private carry: Buffer = Buffer.alloc(0);

  /** Checks the next bytes; once a problem is found the rest is ignored. */
  update(chunk: Uint8Array): void {
    if (this.problem !== "ok") return;
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (bytes.includes(0)) {
      this.problem = "nul";
      return;
    }
    let start = 0;
    if (this.carry.length > 0) {
      // complete the cut character with the first bytes of this chunk
      const need = sequenceLength(this.carry[0] ?? 0) - this.carry.length;
      if (bytes.length < need) {
        this.carry = Buffer.concat([this.carry, bytes]);
        return;
      }
      if (!isUtf8(Buffer.concat([this.carry, bytes.subarray(0, need)]))) {
        this.problem = "utf8";
        return;
      }
      start = need;
      this.carry = Buffer.alloc(0);
    }
    const end = cutCharacterStart(bytes, start);
    if (!isUtf8(bytes.subarray(start, end))) this.problem = "utf8";
    else if (end < bytes.length) this.carry = Buffer.from(bytes.subarray(end));
  }

  /** The verdict after the last chunk (a sequence cut inside a character is not UTF-8). */
  finish(): TextVerdict {
    if (this.problem === "ok" && this.carry.length > 0) this.problem = "utf8";
    return this.problem;
  }

  /** Whether a problem was already found (the rest need not be read). */
  get failed(): boolean {
    return this.problem !== "ok";
  }
}

/** How many bytes the UTF-8 sequence led by `lead` has (1 for anything that leads no sequence). */
function sequenceLength(lead: number): number {
  if (lead >= 0xf0 && lead <= 0xf7) return 4;
  if (lead >= 0xe0) return lead <= 0xef ? 3 : 1;
  if (lead >= 0xc0) return 2;
  return 1;
}

/**
 * Where a character cut by the end of `bytes` begins (so `bytes.length` when none is): a lead byte
 * among the last three whose sequence runs past the end.
 */
function cutCharacterStart(bytes: Buffer, from: number): number {
  for (let i = bytes.length - 1; i >= Math.max(from, bytes.length - 3); i--) {
    const byte = bytes[i] ?? 0;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: look further back
    return byte >= 0xc0 && bytes.length - i < sequenceLength(byte) ? i : bytes.length;
  }
  return bytes.length;
}

/** Streams the whole file through a {@link TextCheck}. */
async function checkTextFile(filePath: string): Promise<TextVerdict> {
  const check = new TextCheck();
  const stream = createReadStream(filePath, { highWaterMark: 256 * 1024 });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      check.update(chunk);
      if (check.failed) break;
    }
  } finally {
    stream.destroy();
  }
  return check.finish();
}

/** Valid UTF-8 all through and no NUL byte (`verdict` when the bytes were already checked). */
async function sniffText(
  filePath: string,
  type: KnownFileType,
  detected: Detected,
  head: Buffer,
  verdict: TextVerdict | undefined,
): Promise<SniffResult> {
  if (detected) return refuse(type, describe(detected, head));
  const problem = verdict ?? (await checkTextFile(filePath));
  if (problem === "nul")
    return { ok: false, message: "The text file contains NUL bytes: it is not plain text" };
  if (problem === "utf8") return { ok: false, message: "The text file is not valid UTF-8 text" };
  return { ok: true, mimeType: KNOWN_FILE_TYPES[type] };
}

/**
 * Whether the file at `filePath` really is of the type its extension names: its sniffed content
 * type, or a message saying why not. Reads only what the check needs (a PDF's first and last bytes;
 * the signature and zip directory entries of a binary format), except text, which is streamed
 * through the UTF-8 check without being held in memory, unless `textVerdict` says what a
 * {@link TextCheck} fed with every byte of the file found.
 * @throws when the file cannot be read.
 */
export async function sniffFile(
  filePath: string,
  extension: KnownFileType,
  options: { textVerdict?: TextVerdict } = {},
): Promise<SniffResult> {
  const head = await readRange(filePath, HEAD_BYTES);
  if (head.length === 0) return { ok: false, message: DOCUMENT_MESSAGES.emptyFile };
  const detected: Detected = await fileTypeFromFile(filePath);

  if (extension === "pdf") return sniffPdf(filePath, detected, head);
  if (TEXT.includes(extension)) return sniffText(filePath, extension, detected, head, options.textVerdict);
  if (OOXML.includes(extension) || ODF.includes(extension)) return sniffPackage(extension, detected, head);
  if (OLE.includes(extension)) {
    if (detected?.ext === "cfb") return { ok: true, mimeType: KNOWN_FILE_TYPES[extension] };
    return refuse(extension, describe(detected, head));
  }
  const imageExt = IMAGE_EXT[extension];
  if (imageExt && detected?.ext === imageExt) return { ok: true, mimeType: detected.mime };
  return refuse(extension, describe(detected, head));
}
