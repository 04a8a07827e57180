import { audit } from "@services/shared/audit";
import type { Db } from "@services/shared/db";
import { AppError } from "@services/shared/errors";
import { emit } from "@services/shared/events";
import { logger } from "@services/shared/logger";
import { canRead, type DocumentActor } from "./actor";
import { DOCUMENT_NOT_FOUND_MESSAGE, lockDocument } from "./present";
import type { RequestOrigin } from "./reviewDocument";
import { storageForBackend } from "./storage";

export const DELETE_MESSAGES = {
  notOwner: "Only the document's owner can delete it",
  report: "A report from the team cannot be deleted",
  approved: "An approved document cannot be deleted",
} as const;

/**
 * The owner (a client-only user) deletes their own pending or rejected document: the row goes with
 * its versions and history (cascade), document.deleted and an audit row, in one transaction that
 * locks the row first (a reviewer's decision in flight finishes first, or sees it gone). After the
 * commit every version's stored object is deleted, best effort: a failure is logged and the orphan
 * sweep removes what is left (no row names it any more, so nobody can download it).
 * @throws AppError NOT_FOUND 'Document not found' (no such document or not visible to the actor),
 * FORBIDDEN (not the owner; a report from the team), CONFLICT 'An approved document cannot be deleted'.
 */
export async function deleteDocument(
  props: { db: Db; actor: DocumentActor; documentId: number } & RequestOrigin,
): Promise<void> {
  const { db, actor } = props;
  const objects = await db.prisma.$transaction(async (tx) => {
    const row = await lockDocument(tx, props.documentId);
    if (!canRead(actor, row.userId)) throw new AppError("NOT_FOUND", DOCUMENT_NOT_FOUND_MESSAGE);
    if (!actor.isClient || row.userId !== actor.id) throw new AppError("FORBIDDEN", DELETE_MESSAGES.notOwner);
    if (row.fromTeam) throw new AppError("FORBIDDEN", DELETE_MESSAGES.report);
    if (row.status === "approved") throw new AppError("CONFLICT", DELETE_MESSAGES.approved);
    await tx.document.delete({ where: { id: row.id } });
    await emit(
      tx,
      {
        type: "document.deleted",
        payload: { documentId: row.id, userId: row.userId, title: row.title, deletedBy: actor.id },
      },
      { actor: { kind: "user", userId: actor.id } },
    );
    await audit(tx, {
      action: "document.deleted",
      actorId: actor.id,
      targetType: "document",
      targetId: row.id,
      ip: props.ip,
      metadata: {
        status: row.status,
        versions: row.versions.length,
        ...(props.requestId ? { requestId: props.requestId } : {}),
      },
    });
    const stored = row.versions.map((v) => ({ backend: v.storageBackend, key: v.storageKey }));
    if (row.storageKey && !stored.some((o) => o.key === row.storageKey)) {
      stored.push({ backend: row.storageBackend, key: row.storageKey });
    }
    return stored;
  });
  for (const object of objects) {
    try {
      await (await storageForBackend(db, object.backend)).delete(object.key);
    } catch (err) {
      logger("document").warn(
        { err, documentId: props.documentId, key: object.key, backend: object.backend },
        "could not delete a deleted document's stored file; the orphan sweep will remove it",
      );
    }
  }
}
