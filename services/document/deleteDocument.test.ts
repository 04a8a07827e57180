import { Readable } from "node:stream";
import type { Db } from "@services/shared/db";
import { testDb } from "@services/shared/testing/db";
import { createDocument, createUser } from "@services/shared/testing/factories";
import type { DocumentActor } from "./actor";
import { DELETE_MESSAGES, deleteDocument } from "./deleteDocument";
import { approveDocument } from "./reviewDocument";
import { storageForBackend } from "./storage";
import { StorageNotFoundError } from "./storage/port";
import { clientActor, teamActor } from "./testing";

let db: Db;
let team: DocumentActor;
beforeAll(async () => {
  db = await testDb();
  const admin = await createUser(db, { userType: "mainAdmin" });
  team = teamActor(admin.id, "Max Main");
});

function ownerOf(doc: { userId: number }): DocumentActor {
  return clientActor(doc.userId, "Olive Owner");
}

async function outboxOf(documentId: number): Promise<{ type: string; payload: Record<string, unknown> }[]> {
  const rows = await db.prisma.$queryRaw<{ type: string; envelope: { payload: Record<string, unknown> } }[]>`
    SELECT type, envelope FROM outbox_events
    WHERE (envelope->'payload'->>'documentId')::int = ${documentId} ORDER BY "createdAt"`;
  return rows.map((r) => ({ type: r.type, payload: r.envelope.payload }));
}

/** Stores `text` under `key` in the local backend. */
async function store(key: string, text: string): Promise<void> {
  const storage = await storageForBackend(db, "local");
  await storage.put(key, Readable.from([Buffer.from(text)]), {
    size: text.length,
    contentType: "application/pdf",
  });
}

describe("deleteDocument", () => {
  it("deletes the owner's pending document with its versions, history and every stored file", async () => {
    const doc = await createDocument(db, { version: 2 });
    const v1 = await db.prisma.documentVersion.findUniqueOrThrow({
      where: { documentId_version: { documentId: doc.id, version: 2 } },
    });
    // the factory made the current version (2); add the first one, as a resubmission leaves it
    const oldKey = `${v1.storageKey}-v1`;
    await db.prisma.documentVersion.create({
      data: { ...v1, id: undefined, version: 1, storageKey: oldKey },
    });
    await store(v1.storageKey, "%PDF-1.7 current");
    await store(oldKey, "%PDF-1.7 first");
    expect((await (await storageForBackend(db, "local")).get(oldKey)).size).toBe("%PDF-1.7 first".length);
    await deleteDocument({
      db,
      actor: ownerOf(doc),
      documentId: doc.id,
      ip: "198.51.100.7",
      requestId: "r-9",
    });
    expect(await db.prisma.document.count({ where: { id: doc.id } })).toBe(0);
    expect(await db.prisma.documentVersion.count({ where: { documentId: doc.id } })).toBe(0);
    expect(await db.prisma.documentHistory.count({ where: { documentId: doc.id } })).toBe(0);
    expect(await outboxOf(doc.id)).toEqual([
      {
        type: "document.deleted",
        payload: { documentId: doc.id, userId: doc.userId, title: doc.title, deletedBy: doc.userId },
      },
    ]);
    expect(
      await db.prisma.auditLog.findMany({ where: { targetType: "document", targetId: String(doc.id) } }),
    ).toMatchObject([
      { action: "document.deleted", actorId: doc.userId, ip: "198.51.100.7", metadata: { requestId: "r-9" } },
    ]);
    const storage = await storageForBackend(db, "local");
    for (const key of [v1.storageKey, oldKey]) {
      await expect(storage.get(key)).rejects.toBeInstanceOf(StorageNotFoundError);
    }
  });

  it("deletes a rejected document too", async () => {
    const doc = await createDocument(db, { status: "rejected", rejectionReason: "Blurry" });
    await deleteDocument({ db, actor: ownerOf(doc), documentId: doc.id });
    expect(await db.prisma.document.count({ where: { id: doc.id } })).toBe(0);
  });

  it("refuses an approved document (409) and a report from the team (403), changing nothing", async () => {
    const approved = await createDocument(db, { status: "approved", approvedBy: "Max Main" });
    await expect(
      deleteDocument({ db, actor: ownerOf(approved), documentId: approved.id }),
    ).rejects.toMatchObject({
      code: "CONFLICT",
      message: DELETE_MESSAGES.approved,
    });
    const report = await createDocument(db, {
      fromTeam: true,
      status: "approved",
      uploadedByName: "Max Main",
    });
    await expect(deleteDocument({ db, actor: ownerOf(report), documentId: report.id })).rejects.toMatchObject(
      {
        code: "FORBIDDEN",
        message: DELETE_MESSAGES.report,
      },
    );
    for (const doc of [approved, report]) {
      expect(await db.prisma.document.count({ where: { id: doc.id } })).toBe(1);
      expect(await outboxOf(doc.id)).toEqual([]);
    }
  });

  it("lets only the owner delete: another client sees no document, an admin is refused", async () => {
    const doc = await createDocument(db);
    const other = await createUser(db, { userType: "client" });
    const otherActor = clientActor(other.id, "O");
    await expect(deleteDocument({ db, actor: otherActor, documentId: doc.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "Document not found",
    });
    await expect(deleteDocument({ db, actor: team, documentId: doc.id })).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: DELETE_MESSAGES.notOwner,
    });
    const demoted = { ...ownerOf(doc), isClient: false };
    await expect(deleteDocument({ db, actor: demoted, documentId: doc.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    for (const documentId of [2_147_483_000, 0, 2 ** 40]) {
      await expect(deleteDocument({ db, actor: ownerOf(doc), documentId })).rejects.toMatchObject({
        code: "NOT_FOUND",
      });
    }
    expect(await db.prisma.document.count({ where: { id: doc.id } })).toBe(1);
    expect(await outboxOf(doc.id)).toEqual([]);
  });

  it("takes turns with a decision: either the approval or the deletion wins, never both", async () => {
    for (let round = 0; round < 4; round++) {
      const doc = await createDocument(db);
      const [approval, deletion] = await Promise.allSettled([
        approveDocument({ db, actor: team, documentId: doc.id }),
        deleteDocument({ db, actor: ownerOf(doc), documentId: doc.id }),
      ]);
      const exists = (await db.prisma.document.count({ where: { id: doc.id } })) === 1;
      if (exists) {
        expect(approval.status).toBe("fulfilled");
        expect(deletion).toMatchObject({ status: "rejected", reason: { code: "CONFLICT" } });
        expect((await outboxOf(doc.id)).map((e) => e.type)).toEqual(["document.approved"]);
      } else {
        expect(deletion.status).toBe("fulfilled");
        expect(approval).toMatchObject({ status: "rejected", reason: { code: "NOT_FOUND" } });
        expect((await outboxOf(doc.id)).map((e) => e.type)).toEqual(["document.deleted"]);
      }
    }
  });

  it("still deletes the document when its stored file cannot be removed (the sweep will)", async () => {
    // a version on the cloud backend, which this test database has not configured: its delete fails
    const doc = await createDocument(db, { storageBackend: "cloud" });
    await deleteDocument({ db, actor: ownerOf(doc), documentId: doc.id });
    expect(await db.prisma.document.count({ where: { id: doc.id } })).toBe(0);
    expect((await outboxOf(doc.id)).map((e) => e.type)).toEqual(["document.deleted"]);
  });
});
