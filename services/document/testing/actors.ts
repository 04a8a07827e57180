import type { DocumentActor } from "../actor";

/** A client acting on documents: their own only (no read:all_documents, no approve:documents). */
export function clientActor(id: number, name: string): DocumentActor {
  return { id, name, isClient: true, readAll: false, approve: false };
}

/** A member of the team acting on documents: read:all_documents and approve:documents. */
export function teamActor(id: number, name: string): DocumentActor {
  return { id, name, isClient: true, readAll: true, approve: true };
}
