import { type DocumentStatusName, PREVIEWABLE_MIME_TYPES } from "@schema/validation/document";
import { idSchema } from "@schema/validation/primitives";
import type { Db, Tx } from "@services/shared/db";
import { AppError } from "@services/shared/errors";
import type { DocumentAction, Prisma } from "@services/shared/generated/prisma/client";
import { type ClientSummary, withUserContacts } from "@services/user";

export const DOCUMENT_NOT_FOUND_MESSAGE = "Document not found";

/**
 * What a document row is loaded with for an answer: its versions and its history, oldest first
 * (Prisma batches the relations of a page of rows into one query each, so a list never asks per
 * row). Its owner comes from the user service's face ({@link withOwners}), never by relation.
 */
export const DOCUMENT_INCLUDE = {
  versions: { orderBy: { version: "asc" } },
  history: { orderBy: [{ createdAt: "asc" }, { id: "asc" }] },
} as const satisfies Prisma.DocumentInclude;

/** A document row with what {@link DOCUMENT_INCLUDE} loads. */
export type DocumentRow = Prisma.DocumentGetPayload<{ include: typeof DOCUMENT_INCLUDE }>;

/** The client a document belongs to. */
export type DocumentOwnerView = ClientSummary;

/** A document row with its owner, as {@link presentDocument} takes it. */
export type DocumentWithOwner = DocumentRow & { owner: DocumentOwnerView };

/**
 * Rows with their owners' contacts (never the password hash), read in one query through the
 * user service's face (the users table is the user service's; docs/DECISIONS.md, Services own their
 * tables), in the rows' order. A row whose owner is gone is left out: it is being deleted with its
 * owner (the foreign key cascades).
 */
export function withOwners(client: Tx | Db, rows: readonly DocumentRow[]): Promise<DocumentWithOwner[]> {
  return withUserContacts(client, rows, "owner");
}

/**
 * One document presented with its owner (read through the user service's face in `client`).
 * @throws AppError NOT_FOUND 'Document not found' when its owner is gone (the document goes with them).
 */
export async function presentDocumentWithOwner(client: Tx | Db, row: DocumentRow): Promise<DocumentView> {
  const [withOwner] = await withOwners(client, [row]);
  if (!withOwner) throw new AppError("NOT_FOUND", DOCUMENT_NOT_FOUND_MESSAGE);
  return presentDocument(withOwner);
}

export interface DocumentHistoryView {
  version: number;
  action: DocumentAction;
  actorName: string;
  /** the rejection reason */
  reason: string | null;
  createdAt: string;
}

export interface DocumentVersionView {
  version: number;
  fileName: string;
  fileType: string;
  fileSize: number;
  createdAt: string;
  /** /api/documents/{id}/versions/{version}/download */
  downloadUrl: string;
}

/** A document as answers show it (the contract's `Document`; dates as UTC ISO strings). */
export interface DocumentView {
  id: number;
  userId: number;
  owner: DocumentOwnerView;
  title: string;
  description: string | null;
  fileName: string;
  fileType: string;
  fileSize: number | null;
  mimeType: string | null;
  /** /api/documents/{id}/download: the portal's download path, whatever the backend */
  fileUrl: string;
  /** /api/documents/{id}/preview when the sniffed type is PDF or an image, else null */
  previewUrl: string | null;
  status: DocumentStatusName;
  version: number;
  fromTeam: boolean;
  uploadedByName: string | null;
  approvedBy: string | null;
  approvedAt: string | null;
  rejectedBy: string | null;
  rejectedAt: string | null;
  rejectionReason: string | null;
  downloadCount: number;
  createdAt: string;
  updatedAt: string;
  /** oldest first */
  history: DocumentHistoryView[];
  /** oldest first */
  versions: DocumentVersionView[];
}

/** The portal's download path of a document's current file. */
export function documentFileUrl(id: number): string {
  return `/api/documents/${id}/download`;
}

/** The portal's preview path of a document. */
export function documentPreviewUrl(id: number): string {
  return `/api/documents/${id}/preview`;
}

/** The portal's download path of one version of a document. */
export function documentVersionUrl(id: number, version: number): string {
  return `/api/documents/${id}/versions/${version}/download`;
}

/** Whether a sniffed content type may be previewed inline (PDF and images). */
export function isPreviewable(mimeType: string | null): boolean {
  return mimeType !== null && (PREVIEWABLE_MIME_TYPES as readonly string[]).includes(mimeType);
}

const iso = (date: Date | null): string | null => (date ? date.toISOString() : null);

/** The answer shape of a document row with its owner, versions and history. */
export function presentDocument(row: DocumentWithOwner): DocumentView {
  return {
    id: row.id,
    userId: row.userId,
    owner: {
      id: row.owner.id,
      username: row.owner.username,
      firstName: row.owner.firstName,
      lastName: row.owner.lastName,
      email: row.owner.email,
      companyName: row.owner.companyName,
    },
    title: row.title,
    description: row.description,
    fileName: row.fileName,
    fileType: row.fileType,
    fileSize: row.fileSize === null ? null : Number(row.fileSize),
    mimeType: row.mimeType,
    fileUrl: documentFileUrl(row.id),
    previewUrl: isPreviewable(row.mimeType) ? documentPreviewUrl(row.id) : null,
    status: row.status,
    version: row.version,
    fromTeam: row.fromTeam,
    uploadedByName: row.uploadedByName,
    approvedBy: row.approvedBy,
    approvedAt: iso(row.approvedAt),
    rejectedBy: row.rejectedBy,
    rejectedAt: iso(row.rejectedAt),
    rejectionReason: row.rejectionReason,
    downloadCount: row.downloadCount,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    history: row.history.map((h) => ({
      version: h.version,
      action: h.action,
      actorName: h.actorName,
      reason: h.reason,
      createdAt: h.createdAt.toISOString(),
    })),
    versions: row.versions.map((v) => ({
      version: v.version,
      fileName: v.fileName,
      fileType: v.fileType,
      fileSize: Number(v.fileSize),
      createdAt: v.createdAt.toISOString(),
      downloadUrl: documentVersionUrl(row.id, v.version),
    })),
  };
}

/** The fields every document event carries (schema/events/document.ts): its current version. */
export function documentEventFields(row: {
  id: number;
  userId: number;
  title: string;
  fileName: string;
  fileType: string;
  version: number;
}) {
  return {
    documentId: row.id,
    userId: row.userId,
    title: row.title,
    fileName: row.fileName,
    fileType: row.fileType,
    version: row.version,
  };
}

/**
 * Loads a document with its versions and history, locking its row for the rest of the
 * transaction (a decision, a deletion and a resubmission of one document take turns). An id outside
 * the database's range names no document and never reaches the database.
 * @throws AppError NOT_FOUND 'Document not found'.
 */
export async function lockDocument(tx: Tx, id: number): Promise<DocumentRow> {
  if (!idSchema.safeParse(id).success) throw new AppError("NOT_FOUND", DOCUMENT_NOT_FOUND_MESSAGE);
  const locked = await tx.$queryRaw<{ id: number }[]>`SELECT id FROM documents WHERE id = ${id} FOR UPDATE`;
  const row =
    locked.length > 0 ? await tx.document.findUnique({ where: { id }, include: DOCUMENT_INCLUDE }) : null;
  if (!row) throw new AppError("NOT_FOUND", DOCUMENT_NOT_FOUND_MESSAGE);
  return row;
}
