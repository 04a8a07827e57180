import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import type { Db } from "@services/shared/db";
import { testDb } from "@services/shared/testing/db";
import { createDocument } from "@services/shared/testing/factories";
import { startS3rver } from "@services/shared/testing/s3rver";
import { newStorageKey, type StoragePort } from "./storage";
import { createLocalStorage } from "./storage/local";
import { createS3Storage } from "./storage/s3";
import { sweepOrphanObjects } from "./sweepOrphans";

let db: Db;
beforeAll(async () => {
  db = await testDb();
});

const adapters: [string, () => Promise<{ storage: StoragePort; close(): Promise<void> }>][] = [
  [
    "local",
    async () => {
      const root = await mkdtemp(path.join(os.tmpdir(), "sweep-"));
      return { storage: createLocalStorage(root), close: () => rm(root, { recursive: true, force: true }) };
    },
  ],
  [
    "s3",
    async () => {
      const server = await startS3rver();
      return { storage: createS3Storage(server.settings), close: () => server.stop() };
    },
  ],
];

async function keysOf(storage: StoragePort): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of storage.list("documents/")) keys.push(object.key);
  return keys.sort();
}

describe.each(adapters)("orphan sweep: %s storage", (_name, make) => {
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
