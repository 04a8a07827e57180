import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import type { Db } from "@services/shared/db";
import { logger } from "@services/shared/logger";
import { documentFileUrl } from "./present";
import { localDocumentStorage, newStorageKey, storageForBackend } from "./storage";

// Demo documents for the testing tools' demo clients (issue 12, outside production): a small text
// file each, stored on local storage under a generated key like any upload, with its version and
// history rows, one pending and one approved. No event is emitted (no email to a demo address).

const TITLES = [
  { title: "Demo invoice summary", status: "pending" },
  { title: "Demo payment plan", status: "approved" },
] as const;

/**
 * Stores two text documents for each client (its name goes in the history). Answers how many were made.
 * @throws the storage's or the database driver's error (objects stored before it are removed).
 */
export async function createDemoDocuments(props: {
  db: Db;
  clients: { id: number; name: string }[];
}): Promise<number> {
  const storage = localDocumentStorage();
  let made = 0;
  for (const client of props.clients) {
    for (const { title, status } of TITLES) {
      const bytes = Buffer.from(`${title} for ${client.name}.\nThis file was generated as demo data.\n`);
      const key = newStorageKey();
      const sha256 = createHash("sha256").update(bytes).digest("hex");
      await storage.put(key, Readable.from([bytes]), { size: bytes.length, contentType: "text/plain" });
      try {
        await props.db.prisma.$transaction(async (tx) => {
          const file = {
            fileName: `${title.toLowerCase().replace(/\s+/g, "-")}.txt`,
            fileType: "txt",
            fileSize: BigInt(bytes.length),
            mimeType: "text/plain",
            sha256,
            storageBackend: "local" as const,
            storageKey: key,
            uploadedById: client.id,
          };
          const document = await tx.document.create({
            data: {
              userId: client.id,
              title,
              description: "Demo data",
              fileUrl: "",
              status,
              uploadedByName: client.name,
              ...(status === "approved" ? { approvedBy: "Demo data", approvedAt: new Date() } : {}),
              ...file,
            },
          });
          await tx.document.update({
            where: { id: document.id },
            data: { fileUrl: documentFileUrl(document.id) },
          });
          await tx.documentVersion.create({ data: { documentId: document.id, version: 1, ...file } });
          await tx.documentHistory.create({
            data: {
              documentId: document.id,
              version: 1,
              action: "uploaded",
              actorId: client.id,
              actorName: client.name,
            },
          });
        });
      } catch (err) {
        await storage.delete(key).catch(() => undefined);
        throw err;
      }
      made++;
    }
  }
  return made;
}

/**
 * Deletes every document of `userIds` (the demo clients'), with their versions, history and every
 * stored file of theirs. Answers how many documents went.
 * @throws the database driver's error; a file that cannot be deleted is logged and left to the
 * hourly sweep of unreferenced objects.
 */
export async function removeDemoDocuments(props: { db: Db; userIds: number[] }): Promise<number> {
  if (props.userIds.length === 0) return 0;
  const versions = await props.db.prisma.documentVersion.findMany({
    where: { document: { userId: { in: props.userIds } } },
    select: { storageBackend: true, storageKey: true },
  });
  const { count } = await props.db.prisma.document.deleteMany({ where: { userId: { in: props.userIds } } });
  for (const v of versions) {
    try {
      const storage = await storageForBackend(props.db, v.storageBackend);
      await storage.delete(v.storageKey);
    } catch (err) {
      logger("document").warn({ err, key: v.storageKey }, "could not delete a demo document's file");
    }
  }
  return count;
}
