import { Readable } from "node:stream";
import type { Db } from "@services/shared/db";
import { testDb } from "@services/shared/testing/db";
import { createDocument } from "@services/shared/testing/factories";
import { newStorageKey, type StoragePort } from "./storage";
import { sweepOrphanObjects } from "./sweepOrphans";
import { STORAGE_ADAPTERS } from "./testing";

let db: Db;
beforeAll(async () => {
  db = await testDb();
});

async function keysOf(storage: StoragePort): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of storage.list("documents/")) keys.push(object.key);
  return keys.sort();
}

describe.each(STORAGE_ADAPTERS)("orphan sweep: %s storage", (_name, make) => {
  it("removes old objects no document refers to, and keeps referenced and fresh ones", async () => {
    const { storage, close } = await make();
    try {
      const put = async () => {
        const key = newStorageKey();
        await storage.put(key, Readable.from([Buffer.from("bytes")]), { size: 5, contentType: "text/plain" });
        return key;
      };
      const referenced = await put();
      const current = await put();
      const orphan = await put();
      const doc = await createDocument(db, { storageKey: current, storageBackend: "local" });
      await db.prisma.documentVersion.create({
        data: {
          documentId: doc.id,
          // an earlier file of the document (the factory made the current one's row)
          version: 2,
          fileName: "a.pdf",
          fileType: "pdf",
          fileSize: 5,
          mimeType: "application/pdf",
          sha256: "0".repeat(64),
          storageBackend: "local",
          storageKey: referenced,
        },
      });
      // stores keep modification times to the second: the fresh object comes clearly later
      await new Promise((resolve) => setTimeout(resolve, 2100));
      const fresh = await put();

      const { removed } = await sweepOrphanObjects({ db, storage, olderThanMs: 1500 });
      expect(removed).toEqual([orphan]);
      expect(await keysOf(storage)).toEqual([referenced, current, fresh].sort());

      // once old enough, the fresh one goes too; a second sweep finds nothing more
      const later = new Date(Date.now() + 60 * 60 * 1000);
      expect((await sweepOrphanObjects({ db, storage, now: later })).removed).toEqual([fresh]);
      expect((await sweepOrphanObjects({ db, storage, now: later })).removed).toEqual([]);
    } finally {
      await close();
    }
  });
});
