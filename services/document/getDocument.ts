import { idSchema } from "@schema/validation/primitives";
import type { Db } from "@services/shared/db";
import { canRead, type DocumentActor } from "./actor";
import { DOCUMENT_INCLUDE, type DocumentView, presentDocument, withOwners } from "./present";

/**
 * One document with its owner, versions and history, for its owner (a client-only user) or a
 * holder of read:all_documents; null when there is no such document or the actor may not see it
 * (the two answers are the same, so an id reveals nothing about other clients' documents).
 * @throws database errors only.
 */
export async function getDocument(props: {
  db: Db;
  actor: DocumentActor;
  documentId: number;
}): Promise<DocumentView | null> {
  if (!idSchema.safeParse(props.documentId).success) return null;
  const row = await props.db.prisma.document.findUnique({
    where: { id: props.documentId },
    include: DOCUMENT_INCLUDE,
  });
  if (!row || !canRead(props.actor, row.userId)) return null;
  const [withOwner] = await withOwners(props.db, [row]);
  return withOwner ? presentDocument(withOwner) : null;
}
