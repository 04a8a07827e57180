import type { Db } from "@services/shared/db";
import type { StoragePort, StoredObjectInfo } from "./storage";

// Objects without a document: left by a crash between storing a file and committing its row, or by
// a transaction that rolled back. An upload commits its row moments after storing the object, so
// only objects older than a threshold (an hour by default) are taken for orphans.

const PREFIX = "documents/";
const BATCH = 500;

/** The keys of `batch` that no document version refers to (one query per batch). */
async function unreferenced(db: Db, batch: StoredObjectInfo[]): Promise<string[]> {
  const keys = batch.map((o) => o.key);
  const [versions, documents] = await Promise.all([
    db.prisma.documentVersion.findMany({ where: { storageKey: { in: keys } }, select: { storageKey: true } }),
    // the document row names its current file too: a belt to the versions' braces
    db.prisma.document.findMany({ where: { storageKey: { in: keys } }, select: { storageKey: true } }),
  ]);
  const known = new Set([...versions, ...documents].map((r) => r.storageKey));
  return keys.filter((key) => !known.has(key));
}

/**
 * Deletes every object under "documents/" of `storage` that is older than `olderThanMs` and that no
 * document version refers to. Answers the keys removed.
 * @throws the store's or the database's error (objects removed until then stay removed).
 */
export async function sweepOrphanObjects(props: {
  db: Db;
  storage: StoragePort;
  olderThanMs?: number;
  now?: Date;
}): Promise<{ removed: string[] }> {
  const cutoff = (props.now ?? new Date()).getTime() - (props.olderThanMs ?? 60 * 60 * 1000);
  const removed: string[] = [];
  let batch: StoredObjectInfo[] = [];
  const flush = async () => {
    const orphans = await unreferenced(props.db, batch);
    batch = [];
    for (const key of orphans) {
      await props.storage.delete(key);
      removed.push(key);
    }
  };
  for await (const object of props.storage.list(PREFIX)) {
    if (object.lastModified.getTime() >= cutoff) continue;
    batch.push(object);
    if (batch.length >= BATCH) await flush();
  }
  if (batch.length > 0) await flush();
  return { removed };
}
