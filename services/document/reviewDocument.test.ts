import { DOCUMENT_MESSAGES, REASON_MAX } from "@schema/validation/document";
import type { Db } from "@services/shared/db";
import { testDb } from "@services/shared/testing/db";
import { createDocument, createUser } from "@services/shared/testing/factories";
import type { DocumentActor } from "./actor";
import {
  approveDocument,
  approveDocuments,
  BULK_MESSAGES,
  REVIEW_FORBIDDEN_MESSAGE,
  rejectDocument,
} from "./reviewDocument";
import { clientActor, teamActor } from "./testing";

let db: Db;
beforeAll(async () => {
  db = await testDb();
});

async function reviewer(name = "Rita Reviewer"): Promise<DocumentActor> {
  const [firstName, lastName] = name.split(" ");
  const admin = await createUser(db, { userType: "userAdmin", firstName, lastName });
  return teamActor(admin.id, name);
}

async function outboxOf(documentId: number): Promise<{ type: string; payload: Record<string, unknown> }[]> {
  const rows = await db.prisma.$queryRaw<{ type: string; envelope: { payload: Record<string, unknown> } }[]>`
    SELECT type, envelope FROM outbox_events
    WHERE (envelope->'payload'->>'documentId')::int = ${documentId} ORDER BY "createdAt"`;
  return rows.map((r) => ({ type: r.type, payload: r.envelope.payload }));
}

async function auditOf(documentId: number) {
  return db.prisma.auditLog.findMany({
    where: { targetType: "document", targetId: String(documentId) },
    orderBy: { id: "asc" },
  });
}

describe("approveDocument", () => {
  it("approves a pending document: who and when, a history row, document.approved and an audit row", async () => {
    const actor = await reviewer();
    const doc = await createDocument(db);
    const before = Date.now();
    const view = await approveDocument({
      db,
      actor,
      documentId: doc.id,
      ip: "203.0.113.9",
      requestId: "req-1",
    });
    expect(view).toMatchObject({
      id: doc.id,
      status: "approved",
      approvedBy: "Rita Reviewer",
      rejectedBy: null,
    });
    expect(Date.parse(view.approvedAt ?? "")).toBeGreaterThanOrEqual(before - 5);
    expect(view.history.map((h) => [h.action, h.actorName, h.version])).toEqual([
      ["uploaded", "Test Client", 1],
      ["approved", "Rita Reviewer", 1],
    ]);
    const history = await db.prisma.documentHistory.findMany({
      where: { documentId: doc.id, action: "approved" },
    });
    expect(history).toMatchObject([{ actorId: actor.id, reason: null }]);
    expect(await outboxOf(doc.id)).toEqual([
      {
        type: "document.approved",
        payload: {
          documentId: doc.id,
          userId: doc.userId,
          title: doc.title,
          fileName: doc.fileName,
          fileType: "pdf",
          version: 1,
          approvedBy: "Rita Reviewer",
          approvedAt: view.approvedAt,
        },
      },
    ]);
    expect(await auditOf(doc.id)).toMatchObject([
      {
        action: "document.approved",
        actorId: actor.id,
        ip: "203.0.113.9",
        metadata: { from: "pending", to: "approved", version: 1, requestId: "req-1" },
      },
    ]);
  });

  it("refuses a second decision with 409 and emits nothing more", async () => {
    const actor = await reviewer();
    const approved = await createDocument(db);
    await approveDocument({ db, actor, documentId: approved.id });
    await expect(approveDocument({ db, actor, documentId: approved.id })).rejects.toMatchObject({
      code: "CONFLICT",
      message: "This document has already been approved",
    });
    await expect(
      rejectDocument({ db, actor, documentId: approved.id, reason: "Blurry" }),
    ).rejects.toMatchObject({ code: "CONFLICT", message: "This document has already been approved" });
    const rejected = await createDocument(db);
    await rejectDocument({ db, actor, documentId: rejected.id, reason: "Blurry" });
    await expect(approveDocument({ db, actor, documentId: rejected.id })).rejects.toMatchObject({
      code: "CONFLICT",
      message: "This document has already been rejected",
    });
    expect((await outboxOf(approved.id)).map((e) => e.type)).toEqual(["document.approved"]);
    expect((await outboxOf(rejected.id)).map((e) => e.type)).toEqual(["document.rejected"]);
    expect(await db.prisma.documentHistory.count({ where: { documentId: rejected.id } })).toBe(2);
    expect(await auditOf(rejected.id)).toHaveLength(1);
    const row = await db.prisma.document.findUniqueOrThrow({ where: { id: rejected.id } });
    expect(row).toMatchObject({ status: "rejected", approvedBy: null, approvedAt: null });
  });

  it("lets exactly one of two concurrent decisions win", async () => {
    const [a, b] = [await reviewer("Ann One"), await reviewer("Ben Two")];
    for (let round = 0; round < 5; round++) {
      const doc = await createDocument(db);
      const results = await Promise.allSettled([
        approveDocument({ db, actor: a, documentId: doc.id }),
        round % 2
          ? approveDocument({ db, actor: b, documentId: doc.id })
          : rejectDocument({ db, actor: b, documentId: doc.id, reason: "No" }),
      ]);
      const won = results.filter((r) => r.status === "fulfilled");
      const lost = results.filter((r) => r.status === "rejected");
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      expect((lost[0] as PromiseRejectedResult).reason).toMatchObject({ code: "CONFLICT" });
      expect(await outboxOf(doc.id)).toHaveLength(1);
      expect(await db.prisma.documentHistory.count({ where: { documentId: doc.id } })).toBe(2);
      expect(await auditOf(doc.id)).toHaveLength(1);
    }
  });

  it("refuses an actor without approve:documents and an unknown document, emitting nothing", async () => {
    const actor = await reviewer();
    const doc = await createDocument(db);
    const owner = clientActor(doc.userId, "Cli Ent");
    await expect(approveDocument({ db, actor: owner, documentId: doc.id })).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: REVIEW_FORBIDDEN_MESSAGE,
    });
    await expect(rejectDocument({ db, actor: owner, documentId: doc.id, reason: "x" })).rejects.toMatchObject(
      {
        code: "FORBIDDEN",
      },
    );
    for (const documentId of [2_147_483_000, 0, -1, 2 ** 40]) {
      await expect(approveDocument({ db, actor, documentId })).rejects.toMatchObject({
        code: "NOT_FOUND",
        message: "Document not found",
      });
    }
    expect(await outboxOf(doc.id)).toEqual([]);
    expect((await db.prisma.document.findUniqueOrThrow({ where: { id: doc.id } })).status).toBe("pending");
  });
});

describe("rejectDocument", () => {
  it("rejects with the reason the client reads: fields, history with the reason, event, audit", async () => {
    const actor = await reviewer("Rob Checker");
    const doc = await createDocument(db);
    const view = await rejectDocument({ db, actor, documentId: doc.id, reason: "  Page 2 is missing  " });
    expect(view).toMatchObject({
      status: "rejected",
      rejectedBy: "Rob Checker",
      rejectionReason: "Page 2 is missing",
      approvedBy: null,
    });
    expect(view.rejectedAt).not.toBeNull();
    expect(view.history.at(-1)).toMatchObject({
      action: "rejected",
      actorName: "Rob Checker",
      reason: "Page 2 is missing",
    });
    expect(await outboxOf(doc.id)).toEqual([
      {
        type: "document.rejected",
        payload: expect.objectContaining({
          documentId: doc.id,
          userId: doc.userId,
          version: 1,
          rejectedBy: "Rob Checker",
          rejectedAt: view.rejectedAt,
          reason: "Page 2 is missing",
        }),
      },
    ]);
    expect(await auditOf(doc.id)).toMatchObject([
      { action: "document.rejected", actorId: actor.id, metadata: { from: "pending", to: "rejected" } },
    ]);
  });

  it("needs a reason, no longer than the maximum, and changes nothing without one", async () => {
    const actor = await reviewer();
    const doc = await createDocument(db);
    for (const reason of ["", "   ", undefined, null, 42]) {
      await expect(rejectDocument({ db, actor, documentId: doc.id, reason })).rejects.toMatchObject({
        code: "VALIDATION_FAILED",
        message: DOCUMENT_MESSAGES.reasonRequired,
      });
    }
    await expect(
      rejectDocument({ db, actor, documentId: doc.id, reason: "x".repeat(REASON_MAX + 1) }),
    ).rejects.toMatchObject({ code: "VALIDATION_FAILED", message: DOCUMENT_MESSAGES.reasonTooLong });
    await expect(rejectDocument({ db, actor, documentId: doc.id, reason: "a\u0000b" })).rejects.toMatchObject(
      {
        code: "VALIDATION_FAILED",
      },
    );
    expect(await outboxOf(doc.id)).toEqual([]);
    expect((await db.prisma.document.findUniqueOrThrow({ where: { id: doc.id } })).status).toBe("pending");
  });

  it("records the decision on the current version of a resubmitted document", async () => {
    const actor = await reviewer();
    const doc = await createDocument(db, { version: 3 });
    await rejectDocument({ db, actor, documentId: doc.id, reason: "Still blurry" });
    const [event] = await outboxOf(doc.id);
    expect(event?.payload.version).toBe(3);
    expect(
      await db.prisma.documentHistory.findFirst({ where: { documentId: doc.id, action: "rejected" } }),
    ).toMatchObject({ version: 3 });
  });
});

describe("approveDocuments", () => {
  it("approves each pending document in its own transaction and lists the failures with their messages", async () => {
    const actor = await reviewer();
    const [a, b, decided] = [await createDocument(db), await createDocument(db), await createDocument(db)];
    await rejectDocument({ db, actor, documentId: decided.id, reason: "No" });
    const missing = 2_147_483_001;
    const result = await approveDocuments({ db, actor, ids: [a.id, decided.id, b.id, missing, a.id] });
    expect(result.approved.map((d) => [d.id, d.status])).toEqual([
      [a.id, "approved"],
      [b.id, "approved"],
    ]);
    expect(result.failed).toEqual([
      { id: decided.id, message: "This document has already been rejected" },
      { id: missing, message: "Document not found" },
    ]);
    expect((await outboxOf(a.id)).map((e) => e.type)).toEqual(["document.approved"]);
    expect((await outboxOf(b.id)).map((e) => e.type)).toEqual(["document.approved"]);
    expect((await outboxOf(decided.id)).map((e) => e.type)).toEqual(["document.rejected"]);
  });

  it("refuses a non-reviewer, no ids, too many ids and bad ids before touching anything", async () => {
    const actor = await reviewer();
    const doc = await createDocument(db);
    const client = clientActor(doc.userId, "C");
    await expect(approveDocuments({ db, actor: client, ids: [doc.id] })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(approveDocuments({ db, actor, ids: [] })).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      message: BULK_MESSAGES.none,
    });
    const many = Array.from({ length: 101 }, (_, i) => i + 1);
    await expect(approveDocuments({ db, actor, ids: many })).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      message: BULK_MESSAGES.tooMany,
    });
    await expect(approveDocuments({ db, actor, ids: [doc.id, 0] })).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
    });
    expect(await outboxOf(doc.id)).toEqual([]);
  });
});
