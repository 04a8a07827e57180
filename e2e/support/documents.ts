import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { localDocumentStorage, newStorageKey } from "@services/document";
import { samplePdf } from "@services/document/testing";
import type { Db } from "@services/shared/db";
import type { Document } from "@services/shared/generated/prisma/client";
import { createDocument, type DocumentOverrides } from "@services/shared/testing/factories";
import type { Page } from "playwright-core";

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
