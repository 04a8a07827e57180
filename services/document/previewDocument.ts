import type { Readable } from "node:stream";
import type { Db } from "@services/shared/db";
import { AppError } from "@services/shared/errors";
import { canRead, type DocumentActor } from "./actor";
import { DOCUMENT_NOT_FOUND, fileGone } from "./downloadDocument";
import { isPreviewable } from "./present";
import { storageForBackend } from "./storage";
import { StorageNotFoundError } from "./storage/port";

export const NOT_PREVIEWABLE_MESSAGE = "Only PDF documents and images can be previewed";

/**
 * The current file of a document for an inline preview: only when its sniffed type is PDF or an
 * image; its bytes are streamed (also from cloud storage, so the gateway's headers apply). Not a
 * download: the count does not change. Owner (a client) or read:all_documents only.
 * @throws AppError NOT_FOUND (no such document, not visible, or its object is gone),
 *   UNSUPPORTED_MEDIA_TYPE (not previewable).
 */
export async function previewDocument(props: {
  db: Db;
  actor: DocumentActor;
  documentId: number;
}): Promise<{ fileName: string; mimeType: string; body: Readable; size: number }> {
  const { db, documentId } = props;
  const document = await db.prisma.document.findUnique({
    where: { id: documentId },
    select: { userId: true, storageBackend: true, storageKey: true, fileName: true, mimeType: true },
  });
  if (!document || !canRead(props.actor, document.userId))
    throw new AppError("NOT_FOUND", DOCUMENT_NOT_FOUND);
  if (!isPreviewable(document.mimeType) || document.mimeType === null) {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", NOT_PREVIEWABLE_MESSAGE);
  }
  if (!document.storageKey) throw fileGone(documentId, document.storageBackend, null);
  try {
    const storage = await storageForBackend(db, document.storageBackend);
    const { body, size } = await storage.get(document.storageKey);
    return { fileName: document.fileName, mimeType: document.mimeType, body, size };
  } catch (err) {
    if (err instanceof StorageNotFoundError)
      throw fileGone(documentId, document.storageBackend, document.storageKey);
    throw err;
  }
}
