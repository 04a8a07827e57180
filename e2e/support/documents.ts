import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { localDocumentStorage, newStorageKey } from "@services/document";
import type { Db } from "@services/shared/db";
import type { Document } from "@services/shared/generated/prisma/client";
import { createDocument, type DocumentOverrides } from "@services/shared/testing/factories";
import type { Page } from "playwright-core";

/**
 * A small well-formed PDF (header, objects, cross-reference table, trailer) with one 200×200 page per
 * entry of `pages`, each writing its text (letters, digits and spaces) in Helvetica, a standard font
 * it does not embed.
 */
export function samplePdf(pages: readonly string[]): Buffer {
  const objects = ["<< /Type /Catalog /Pages 2 0 R >>", ""];
  const kids: string[] = [];
  const fontId = 3 + pages.length * 2;
  pages.forEach((text, i) => {
    const pageId = 3 + i * 2;
    const content = `BT /F1 12 Tf 10 100 Td (${text}) Tj ET`;
    kids.push(`${pageId} 0 R`);
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents ${pageId + 1} 0 R /Resources << /Font << /F1 ${fontId} 0 R >> >> >>`,
      `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    );
  });
  objects[1] = `<< /Type /Pages /Kids [${kids.join(" ")}] /Count ${pages.length} >>`;
  objects.push("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
  let body = "%PDF-1.4\n";
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

/**
 * Creates a pending PDF document (as {@link createDocument} does) whose file really is stored on
 * local storage, so its preview and download work in the browser: `bytes`, by default a one-page
 * PDF that writes "Invoice". Call it inside a test of a browser suite (the server's config names
 * the data directory).
 * @throws Prisma errors, or a storage failure.
 */
export async function createStoredDocument(
  db: Db,
  overrides: DocumentOverrides = {},
  bytes: Buffer = samplePdf(["Invoice"]),
): Promise<Document> {
  const storageKey = newStorageKey();
  await localDocumentStorage().put(storageKey, Readable.from(bytes), {
    size: bytes.length,
    contentType: "application/pdf",
  });
  return createDocument(db, {
    fileSize: bytes.length,
    sha256: createHash("sha256").update(bytes).digest("hex"),
    ...overrides,
    storageBackend: "local",
    storageKey,
  });
}

/**
 * Narrows /admin/documentation's queue to the document titled `title` (its search box) and waits for
 * its row: the queue shows the oldest pending documents first, and other tests of the run add theirs.
 */
export async function findInQueue(page: Page, title: string): Promise<void> {
  await page.getByRole("form", { name: "Filter documents" }).getByLabel("Search").fill(title);
  await page.getByRole("button", { name: title, exact: true }).waitFor();
  // the search has applied (it waits for typing to pause): every row shown is the document's
  await page
    .getByRole("table", { name: "Documents" })
    .locator("tbody tr")
    .filter({ hasNotText: title })
    .first()
    .waitFor({ state: "detached" });
}
