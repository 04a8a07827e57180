import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import type { KnownFileType } from "@schema/validation/document";
import { audit } from "@services/shared/audit";
import type { Db, Tx } from "@services/shared/db";
import { AppError } from "@services/shared/errors";
import { emit } from "@services/shared/events";
import type { Document, Upload } from "@services/shared/generated/prisma/client";
import { logger } from "@services/shared/logger";
import { findUserContact } from "@services/user";
import { fetchStagedUpload, removeStagedObjects } from "./cloudStaging";
import type { Inspection } from "./inspectingStore";
import { documentFileUrl } from "./present";
import { sniffFile } from "./sniff";
import { removeStaged } from "./staging";
import { newStorageKey, storageForBackend, storageForNewUploads } from "./storage";
import type { StorageBackendName, StoragePort } from "./storage/port";

/** What the final PATCH of an upload answers (tus-js-client reads it as the last response). */
export interface FinishedDocument {
  id: number;
  title: string;
  fileName: string;
  fileType: string;
  fileSize: number;
  status: Document["status"];
  version: number;
  fromTeam: boolean;
  createdAt: string;
}

/** Where the finished upload's bytes were stored, handed to the `afterStore` hook. */
export interface StoredFile {
  backend: StorageBackendName;
  key: string;
  size: number;
  sha256: string;
  mimeType: string;
}

/**
 * Turns a finished tus upload into a document. The staged bytes are sniffed and must agree with the
 * file's extension; then they are streamed into the storage chosen for new uploads under a
 * generated key (hashed on the way), and one transaction writes the document (new, resubmitted or a
 * report for a client), its version and history rows, deletes the `uploads` row, emits
 * document.uploaded or document.resubmitted and, for a report, audits it. If that transaction fails
 * the stored object is deleted (best effort; the orphan sweep removes what is left). The staged file
 * is removed in every case. An upload staged in the cloud store (by whichever gateways took its
 * PATCHes) is first copied to `stagedPath`, hashed and text-checked on the way, and its staged
 * objects are removed in every case too. The title, description and file name are those recorded at creation.
 * @throws AppError NOT_FOUND (no such upload, or the uploader is gone), UNPROCESSABLE (the content
 *   does not match the extension, with the sniffer's message), CONFLICT (finished twice, or the
 *   resubmitted document is no longer rejected); storage and database errors as they come.
 */
export async function finishUpload(props: {
  db: Db;
  uploadId: string;
  /** the staged bytes (DATA_DIR/uploads/<id>); for an upload staged in the cloud, where they are copied */
  stagedPath: string;
  now?: Date;
  /** the sha256 and text check computed while the bytes arrived, when every byte passed this process */
  inspection?: Inspection;
  /** runs between storing the object and the transaction (tests: a crash at that point) */
  afterStore?: (stored: StoredFile) => Promise<void>;
}): Promise<FinishedDocument> {
  const { db } = props;
  let cloudStaging: StoragePort | undefined;
  try {
    const upload = await db.prisma.upload.findUnique({ where: { id: props.uploadId } });
    if (!upload) throw new AppError("NOT_FOUND", "This upload no longer exists");
    let inspection = props.inspection;
    if (upload.stagedIn === "cloud") {
      // staged in the cloud store by whichever gateways took its PATCHes: copied here once, and
      // inspected on the way
      cloudStaging = await storageForBackend(db, "cloud");
      inspection = await fetchStagedUpload(cloudStaging, upload.id, props.stagedPath);
    }
    // without an inspection the hash is read beside the sniff (both from the page cache)
    const hashing = inspection ? Promise.resolve(inspection.sha256) : hashFile(props.stagedPath);
    hashing.catch(() => undefined);
    const sniffed = await sniffFile(props.stagedPath, upload.fileType as KnownFileType, {
      textVerdict: inspection?.textVerdict,
    });
    if (!sniffed.ok) {
      await db.prisma.upload.deleteMany({ where: { id: upload.id } });
      throw new AppError("UNPROCESSABLE", sniffed.message);
    }
    const storage = await storageForNewUploads(db);
    const stored = await store(storage, props.stagedPath, sniffed.mimeType, hashing);
    try {
      await props.afterStore?.(stored);
      return await db.prisma.$transaction((tx) => record(tx, upload, stored, props.now ?? new Date()));
    } catch (err) {
      await storage.delete(stored.key).catch((deleteErr: unknown) => {
        logger("document.upload").warn(
          { err: deleteErr, key: stored.key },
          "stored object left for the orphan sweep",
        );
      });
      throw err;
    }
  } catch (err) {
    // a refused or failed upload cannot be continued: the client starts again
    await db.prisma.upload.deleteMany({ where: { id: props.uploadId } }).catch(() => undefined);
    throw err;
  } finally {
    await removeStaged(props.stagedPath);
    const staging = cloudStaging;
    if (staging) {
      await removeStagedObjects(staging, props.uploadId).catch((err: unknown) => {
        logger("document.upload").warn(
          { err, uploadId: props.uploadId },
          "staged objects left for the sweep",
        );
      });
    }
  }
}

/** The hex sha256 of a file, streamed. */
async function hashFile(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/**
 * Hands the staged file to `storage` under a new key (the local store moves it into place); `hashing`
 * is its sha256, which is settled before the file moves.
 */
async function store(
  storage: StoragePort,
  stagedPath: string,
  mimeType: string,
  hashing: Promise<string>,
): Promise<StoredFile> {
  const { size } = await stat(stagedPath);
  const key = newStorageKey();
  const sha256 = await hashing;
  await storage.putFile(key, stagedPath, { size, contentType: mimeType });
  return { backend: storage.backend, key, size, sha256, mimeType };
}

/** The uploader's "First Last". @throws AppError NOT_FOUND when the account is gone. */
async function uploaderName(tx: Tx, userId: number): Promise<string> {
  const user = await findUserContact(tx, userId);
  if (!user) throw new AppError("NOT_FOUND", "This upload no longer exists");
  return `${user.firstName} ${user.lastName}`.trim();
}

/** The document side of a finished upload, inside one transaction. */
async function record(tx: Tx, upload: Upload, stored: StoredFile, now: Date): Promise<FinishedDocument> {
  // claim the upload: of two finishes of one upload, only one finds the row
  const claimed = await tx.upload.deleteMany({ where: { id: upload.id } });
  if (claimed.count !== 1) throw new AppError("CONFLICT", "This upload has already been finished");
  const actorName = await uploaderName(tx, upload.userId);
  const file = {
    fileName: upload.fileName,
    fileType: upload.fileType,
    fileSize: BigInt(stored.size),
    mimeType: stored.mimeType,
    sha256: stored.sha256,
    storageBackend: stored.backend,
    storageKey: stored.key,
    uploadedById: upload.userId,
  };
  const document =
    upload.purpose === "resubmission"
      ? await resubmit(tx, upload, file, actorName)
      : await createDocument(tx, upload, file, actorName, now);
  await tx.documentVersion.create({
    data: { documentId: document.id, version: document.version, ...file, createdAt: now },
  });
  const action =
    upload.purpose === "resubmission" ? "resubmitted" : upload.purpose === "report" ? "report" : "uploaded";
  await tx.documentHistory.create({
    data: {
      documentId: document.id,
      version: document.version,
      action,
      actorId: upload.userId,
      actorName,
      createdAt: now,
    },
  });
  const eventFields = {
    documentId: document.id,
    userId: document.userId,
    title: document.title,
    fileName: document.fileName,
    fileType: document.fileType,
    version: document.version,
    fileSize: stored.size,
    uploadedByName: actorName,
  };
  const actor = {
    kind: upload.purpose === "report" ? ("admin" as const) : ("user" as const),
    userId: upload.userId,
  };
  if (upload.purpose === "resubmission") {
    await emit(tx, { type: "document.resubmitted", payload: eventFields }, { actor });
  } else {
    await emit(
      tx,
      {
        type: "document.uploaded",
        payload: { ...eventFields, uploadedById: upload.userId, fromTeam: document.fromTeam },
      },
      { actor },
    );
  }
  if (upload.purpose === "report") {
    await audit(tx, {
      action: "document.report_sent",
      actorId: upload.userId,
      targetType: "document",
      targetId: document.id,
      metadata: { clientId: document.userId, fileName: document.fileName, sha256: stored.sha256 },
    });
  }
  return {
    id: document.id,
    title: document.title,
    fileName: document.fileName,
    fileType: document.fileType,
    fileSize: stored.size,
    status: document.status,
    version: document.version,
    fromTeam: document.fromTeam,
    createdAt: document.createdAt.toISOString(),
  };
}

type FileFields = {
  fileName: string;
  fileType: string;
  fileSize: bigint;
  mimeType: string;
  sha256: string;
  storageBackend: StorageBackendName;
  storageKey: string;
  uploadedById: number;
};

/** A new document: the uploader's own (pending), or a report for a client (approved at once). */
async function createDocument(
  tx: Tx,
  upload: Upload,
  file: FileFields,
  actorName: string,
  now: Date,
): Promise<Document> {
  const report = upload.purpose === "report";
  const created = await tx.document.create({
    data: {
      userId: report && upload.clientId !== null ? upload.clientId : upload.userId,
      title: upload.title,
      description: upload.description,
      fileUrl: "",
      ...file,
      status: report ? "approved" : "pending",
      uploadedByName: actorName,
      fromTeam: report,
      approvedBy: report ? actorName : null,
      approvedAt: report ? now : null,
      version: 1,
      createdAt: now,
      updatedAt: now,
    },
  });
  return tx.document.update({ where: { id: created.id }, data: { fileUrl: documentFileUrl(created.id) } });
}

/**
 * The new version of the owner's rejected document: pending again, the decision fields cleared
 * (the history keeps them). @throws AppError CONFLICT when it is no longer the owner's rejected one.
 */
async function resubmit(tx: Tx, upload: Upload, file: FileFields, actorName: string): Promise<Document> {
  const documentId = upload.documentId ?? 0;
  const locked = await tx.$queryRaw<{ userId: number; status: string }[]>`
    SELECT "userId", status::text AS status FROM documents WHERE id = ${documentId} FOR UPDATE`;
  const current = locked[0];
  if (!current || current.userId !== upload.userId) throw new AppError("NOT_FOUND", "Document not found");
  if (current.status !== "rejected")
    throw new AppError("CONFLICT", "Only a rejected document can be resubmitted");
  return tx.document.update({
    where: { id: documentId },
    data: {
      ...file,
      title: upload.title,
      description: upload.description,
      version: { increment: 1 },
      status: "pending",
      uploadedByName: actorName,
      rejectedBy: null,
      rejectedAt: null,
      rejectionReason: null,
      approvedBy: null,
      approvedAt: null,
    },
  });
}
