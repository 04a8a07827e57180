import {
  type FileProblem,
  fileExtension,
  fileProblem,
  uploadMetadataSchema,
} from "@schema/validation/document";
import type { Db } from "@services/shared/db";
import { AppError, type AppErrorCode } from "@services/shared/errors";
import type { Upload } from "@services/shared/generated/prisma/client";
import { findUserContact } from "@services/user";
import type { DocumentActor } from "./actor";
import { UPLOAD_TTL_MS } from "./staging";
import { uploadPolicy } from "./storageSettings";
import { stagingForNewUpload } from "./uploadStaging";

/** 415 for a type not allowed, 413 for a file over the maximum, 400 for an empty one. */
const PROBLEM_CODES: Record<FileProblem["kind"], AppErrorCode> = {
  type: "UNSUPPORTED_MEDIA_TYPE",
  size: "PAYLOAD_TOO_LARGE",
  empty: "VALIDATION_FAILED",
};

export const UPLOAD_LENGTH_REQUIRED =
  "The size of the file must be declared when the upload starts (Upload-Length)";

/**
 * Creates a tus upload (its `uploads` row) once everything known before the first byte is right:
 * the declared length against maxFileSize, the extension against allowedFileTypes, the metadata
 * (title, description, file name) against the shared schema, and what the upload is for. A
 * resubmission (`documentId`) must name the caller's own rejected document; a report (`clientId`)
 * needs approve:documents and an existing client. The row expires after 24 hours and records where
 * the bytes will be staged (the cloud store while cloud storage is configured, else locally).
 * @throws AppError FORBIDDEN (not a client, or a report without approve:documents),
 *   BAD_REQUEST (no declared length), VALIDATION_FAILED (metadata, empty file),
 *   PAYLOAD_TOO_LARGE, UNSUPPORTED_MEDIA_TYPE, NOT_FOUND (document or client), CONFLICT (the
 *   document is not rejected).
 */
export async function createUpload(props: {
  db: Db;
  actor: DocumentActor;
  /** the tus upload id (random, made by the caller) */
  uploadId: string;
  /** the Upload-Length header as sent (null when absent or deferred) */
  uploadLength: string | null;
  /** the decoded Upload-Metadata */
  metadata: Record<string, string | null>;
  now?: Date;
}): Promise<Upload> {
  const { db, actor } = props;
  const now = props.now ?? new Date();
  if (!actor.isClient) throw new AppError("FORBIDDEN", "Documents are only available to clients.");
  const size = declaredLength(props.uploadLength);
  const metadata = parseMetadata(props.metadata);
  const policy = await uploadPolicy(db);
  const problem = fileProblem({ name: metadata.filename, size }, policy);
  if (problem) throw new AppError(PROBLEM_CODES[problem.kind], problem.message);
  const fileType = fileExtension(metadata.filename) ?? "";

  if (metadata.documentId !== undefined) await checkResubmission(db, actor, metadata.documentId);
  if (metadata.clientId !== undefined) await checkReportClient(db, actor, metadata.clientId);

  return db.prisma.upload.create({
    data: {
      id: props.uploadId,
      userId: actor.id,
      purpose: metadata.documentId ? "resubmission" : metadata.clientId ? "report" : "document",
      documentId: metadata.documentId ?? null,
      clientId: metadata.clientId ?? null,
      title: metadata.title,
      description: metadata.description,
      fileName: metadata.filename,
      fileType,
      declaredSize: BigInt(size),
      stagedIn: await stagingForNewUpload(db),
      expiresAt: new Date(now.getTime() + UPLOAD_TTL_MS),
    },
  });
}

/** The declared Upload-Length as a number. @throws AppError BAD_REQUEST when absent or malformed. */
function declaredLength(header: string | null): number {
  if (header === null || !/^\d{1,16}$/.test(header))
    throw new AppError("BAD_REQUEST", UPLOAD_LENGTH_REQUIRED);
  const size = Number(header);
  if (!Number.isSafeInteger(size)) throw new AppError("BAD_REQUEST", UPLOAD_LENGTH_REQUIRED);
  return size;
}

/** The metadata through the shared schema. @throws AppError VALIDATION_FAILED with its first message. */
function parseMetadata(raw: Record<string, string | null>) {
  const input = {
    title: raw.title ?? undefined,
    description: raw.description ?? undefined,
    filename: raw.filename ?? undefined,
    documentId: raw.documentId ? raw.documentId : undefined,
    clientId: raw.clientId ? raw.clientId : undefined,
  };
  const parsed = uploadMetadataSchema.safeParse(input);
  if (!parsed.success) {
    throw new AppError("VALIDATION_FAILED", parsed.error.issues[0]?.message ?? "Invalid upload metadata");
  }
  return parsed.data;
}

/**
 * A resubmission must name the caller's own rejected document.
 * @throws AppError NOT_FOUND (missing or another's), CONFLICT (not rejected).
 */
async function checkResubmission(db: Db, actor: DocumentActor, documentId: number): Promise<void> {
  const document = await db.prisma.document.findUnique({
    where: { id: documentId },
    select: { userId: true, status: true },
  });
  if (!document || document.userId !== actor.id) throw new AppError("NOT_FOUND", "Document not found");
  if (document.status !== "rejected") {
    throw new AppError("CONFLICT", "Only a rejected document can be resubmitted");
  }
}

/**
 * A report needs approve:documents and a client (userType client) to send it to.
 * @throws AppError FORBIDDEN, NOT_FOUND.
 */
async function checkReportClient(db: Db, actor: DocumentActor, clientId: number): Promise<void> {
  if (!actor.approve) {
    throw new AppError("FORBIDDEN", "You don't have the necessary permissions to send reports to clients.");
  }
  const client = await findUserContact(db, clientId);
  if (client?.userType !== "client") throw new AppError("NOT_FOUND", "Client not found");
}
