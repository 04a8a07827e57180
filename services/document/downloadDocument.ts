import type { Db, Tx } from "@services/shared/db";
import { AppError } from "@services/shared/errors";
import { logger } from "@services/shared/logger";
import { canRead, type DocumentActor } from "./actor";
import { storageForBackend } from "./storage";
import {
  type DownloadTarget,
  type StorageBackendName,
  StorageNotFoundError,
  type StoragePort,
} from "./storage/port";

export const DOCUMENT_NOT_FOUND = "Document not found";
export const FILE_GONE_MESSAGE = "The file is no longer available";

/** A file to hand to the browser: its name and sniffed type, and how to serve it. */
export interface DocumentDownload {
  fileName: string;
  mimeType: string;
  target: DownloadTarget;
}

interface StoredFileRow {
  storageBackend: StorageBackendName;
  storageKey: string | null;
  fileName: string;
  mimeType: string | null;
}

/**
 * Downloads a document's file: the current one (counted: downloadCount rises by exactly one, in
 * one atomic UPDATE, and only when the file could be opened) or, with `version`, an older version's
 * (not counted). Only the owner (a client) or read:all_documents may; anyone else is told the
 * document does not exist.
 * @throws AppError NOT_FOUND (no such document or version, not visible to the actor, or its stored
 *   object is gone: 'The file is no longer available').
 */
export async function downloadDocument(props: {
  db: Db;
  actor: DocumentActor;
  documentId: number;
  version?: number;
}): Promise<DocumentDownload> {
  const { db, actor, documentId } = props;
  const document = await db.prisma.document.findUnique({
    where: { id: documentId },
    select: { userId: true, storageBackend: true },
  });
  if (!document || !canRead(actor, document.userId)) throw new AppError("NOT_FOUND", DOCUMENT_NOT_FOUND);
  if (props.version !== undefined) {
    const version = await db.prisma.documentVersion.findUnique({
      where: { documentId_version: { documentId, version: props.version } },
    });
    if (!version) throw new AppError("NOT_FOUND", "Version not found");
    return open(await storageForBackend(db, version.storageBackend), documentId, version);
  }
  // the store is resolved before the transaction: it may read the settings, which must not wait for
  // the transaction's own connection (the embedded database has only one)
  const storage = await storageForBackend(db, document.storageBackend);
  return db.prisma.$transaction(async (tx) => {
    const row = await countDownload(tx, documentId);
    if (row.storageBackend !== storage.backend) {
      throw new AppError("CONFLICT", "The document changed while it was being downloaded. Please try again.");
    }
    return open(storage, documentId, row);
  });
}

/** Adds one to the document's downloadCount and answers where its file is (row locked until commit). */
async function countDownload(tx: Tx, documentId: number): Promise<StoredFileRow> {
  const rows = await tx.$queryRaw<StoredFileRow[]>`
    UPDATE documents SET "downloadCount" = "downloadCount" + 1
    WHERE id = ${documentId}
    RETURNING "storageBackend"::text AS "storageBackend", "storageKey", "fileName", "mimeType"`;
  const row = rows[0];
  if (!row) throw new AppError("NOT_FOUND", DOCUMENT_NOT_FOUND);
  return row;
}

/** How to serve a stored file. @throws AppError NOT_FOUND when it has no stored object. */
async function open(storage: StoragePort, documentId: number, row: StoredFileRow): Promise<DocumentDownload> {
  const mimeType = row.mimeType ?? "application/octet-stream";
  if (!row.storageKey) throw fileGone(documentId, row.storageBackend, null);
  try {
    const target = await storage.download(row.storageKey, { fileName: row.fileName, contentType: mimeType });
    return { fileName: row.fileName, mimeType, target };
  } catch (err) {
    if (err instanceof StorageNotFoundError) throw fileGone(documentId, row.storageBackend, row.storageKey);
    throw err;
  }
}

/** The NOT_FOUND of a document whose stored object is gone (logged: it should not happen). */
export function fileGone(documentId: number, backend: string, key: string | null): AppError {
  logger("document.download").warn({ documentId, backend, key }, "stored object of a document is missing");
  return new AppError("NOT_FOUND", FILE_GONE_MESSAGE);
}
