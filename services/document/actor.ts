/**
 * Who is acting on documents, as the document service needs to know it. The gateway builds it from
 * the signed-in user and the permission matrix (gateway/src/auth/actor.ts); the use cases
 * check it, so every surface (GraphQL, REST, tus) applies the same rules.
 */
export interface DocumentActor {
  id: number;
  /** "First Last": uploadedByName, approvedBy, rejectedBy and the history's actorName */
  name: string;
  /** client, mainAdmin or userAdmin (DECISIONS.md "Who counts as a client"): may hold documents */
  isClient: boolean;
  /** read:all_documents */
  readAll: boolean;
  /** approve:documents */
  approve: boolean;
}

/** Whether `actor` may see a document owned by `ownerId`. */
export function canRead(actor: DocumentActor, ownerId: number): boolean {
  return actor.readAll || (actor.isClient && actor.id === ownerId);
}
