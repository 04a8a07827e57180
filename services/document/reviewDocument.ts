import { rejectDocumentSchema } from "@schema/validation/document";
import { id } from "@schema/validation/primitives";
import { audit } from "@services/shared/audit";
import type { Db, Tx } from "@services/shared/db";
import { AppError, isAppError } from "@services/shared/errors";
import { emit } from "@services/shared/events";
import { logger } from "@services/shared/logger";
import { z } from "zod";
import type { DocumentActor } from "./actor";
import {
  DOCUMENT_INCLUDE,
  type DocumentRow,
  type DocumentView,
  documentEventFields,
  lockDocument,
  presentDocumentWithOwner,
} from "./present";

// Review (spec §5, DECISIONS.md "Documents"): approve:documents approves a pending document or
// rejects it with a reason the client reads. A decided document stays decided: deciding it again is
// a 409. Each decision sets its who/when fields, adds a history row, emits its event and writes an
// audit row, all in one transaction.

export const REVIEW_FORBIDDEN_MESSAGE = "You don't have permission to approve or reject documents";
export const BULK_LIMIT = 100;
export const BULK_MESSAGES = {
  none: "Choose at least one document to approve",
  tooMany: `At most ${BULK_LIMIT} documents can be approved at once`,
} as const;

/** 'This document has already been approved' (or rejected). */
export function alreadyDecidedMessage(status: "approved" | "rejected"): string {
  return `This document has already been ${status}`;
}

/** Where the request came from, for the audit row. */
export interface RequestOrigin {
  ip?: string | null;
  requestId?: string;
}

type Decision = { status: "approved" } | { status: "rejected"; reason: string };

function assertReviewer(actor: DocumentActor): void {
  if (!actor.approve) throw new AppError("FORBIDDEN", REVIEW_FORBIDDEN_MESSAGE);
}

/** Applies a decision to a locked pending document, with its history row, event and audit row. */
async function decide(
  tx: Tx,
  props: { actor: DocumentActor; documentId: number; decision: Decision } & RequestOrigin,
): Promise<DocumentRow> {
  const { actor, decision } = props;
  const before = await lockDocument(tx, props.documentId);
  if (before.status !== "pending") {
    throw new AppError("CONFLICT", alreadyDecidedMessage(before.status));
  }
  const now = new Date();
  await tx.document.update({
    where: { id: before.id },
    data:
      decision.status === "approved"
        ? { status: "approved", approvedBy: actor.name, approvedAt: now }
        : { status: "rejected", rejectedBy: actor.name, rejectedAt: now, rejectionReason: decision.reason },
  });
  await tx.documentHistory.create({
    data: {
      documentId: before.id,
      version: before.version,
      action: decision.status,
      actorId: actor.id,
      actorName: actor.name,
      reason: decision.status === "rejected" ? decision.reason : null,
      createdAt: now,
    },
  });
  const meta = { actor: { kind: "admin" as const, userId: actor.id } };
  if (decision.status === "approved") {
    const payload = { ...documentEventFields(before), approvedBy: actor.name, approvedAt: now.toISOString() };
    await emit(tx, { type: "document.approved", payload }, meta);
  } else {
    const payload = {
      ...documentEventFields(before),
      rejectedBy: actor.name,
      rejectedAt: now.toISOString(),
      reason: decision.reason,
    };
    await emit(tx, { type: "document.rejected", payload }, meta);
  }
  await audit(tx, {
    action: `document.${decision.status}`,
    actorId: actor.id,
    targetType: "document",
    targetId: before.id,
    ip: props.ip,
    metadata: {
      from: before.status,
      to: decision.status,
      version: before.version,
      ...(props.requestId ? { requestId: props.requestId } : {}),
    },
  });
  return tx.document.findUniqueOrThrow({ where: { id: before.id }, include: DOCUMENT_INCLUDE });
}

/**
 * A reviewer (approve:documents) approves a pending document: approvedBy/approvedAt set, a history
 * row, document.approved and an audit row in one transaction. The row is locked first, so of two
 * reviewers deciding at once exactly one wins and the other gets the 409.
 * @throws AppError FORBIDDEN (no approve:documents), NOT_FOUND 'Document not found', CONFLICT
 * 'This document has already been approved' / '... rejected'.
 */
export async function approveDocument(
  props: { db: Db; actor: DocumentActor; documentId: number } & RequestOrigin,
): Promise<DocumentView> {
  assertReviewer(props.actor);
  return props.db.prisma.$transaction(async (tx) =>
    presentDocumentWithOwner(tx, await decide(tx, { ...props, decision: { status: "approved" } })),
  );
}

/**
 * A reviewer (approve:documents) rejects a pending document with a reason the client will read:
 * rejectedBy/rejectedAt/rejectionReason set, a history row with the reason, document.rejected and
 * an audit row in one transaction.
 * @throws AppError FORBIDDEN, VALIDATION_FAILED 'Please give a reason for the rejection' (or too
 * long), NOT_FOUND 'Document not found', CONFLICT 'This document has already been approved/rejected'.
 */
export async function rejectDocument(
  props: { db: Db; actor: DocumentActor; documentId: number; reason: unknown } & RequestOrigin,
): Promise<DocumentView> {
  assertReviewer(props.actor);
  const parsed = rejectDocumentSchema.safeParse({ reason: props.reason });
  if (!parsed.success) {
    throw new AppError("VALIDATION_FAILED", parsed.error.issues[0]?.message ?? "Invalid reason", {
      details: { errors: { reason: parsed.error.issues.map((i) => i.message) } },
    });
  }
  const { reason } = parsed.data;
  return props.db.prisma.$transaction(async (tx) =>
    presentDocumentWithOwner(tx, await decide(tx, { ...props, decision: { status: "rejected", reason } })),
  );
}

const bulkIdsSchema = z
  .array(id(), { error: BULK_MESSAGES.none })
  .min(1, BULK_MESSAGES.none)
  .max(BULK_LIMIT, BULK_MESSAGES.tooMany)
  .transform((ids) => [...new Set(ids)]);

export interface BulkApproveView {
  approved: DocumentView[];
  failed: { id: number; message: string }[];
}

/**
 * A reviewer approves several documents at once (at most 100). Each is approved in its own
 * transaction with its own event, so one that fails (already decided, gone) does not hold back the
 * others: the answer lists the approved documents and each failure with its message.
 * @throws AppError FORBIDDEN, VALIDATION_FAILED (no ids, more than 100, or an id out of range).
 */
export async function approveDocuments(
  props: { db: Db; actor: DocumentActor; ids: unknown } & RequestOrigin,
): Promise<BulkApproveView> {
  assertReviewer(props.actor);
  const parsed = bulkIdsSchema.safeParse(props.ids);
  if (!parsed.success) {
    throw new AppError("VALIDATION_FAILED", parsed.error.issues[0]?.message ?? BULK_MESSAGES.none);
  }
  const result: BulkApproveView = { approved: [], failed: [] };
  for (const documentId of parsed.data) {
    try {
      result.approved.push(await approveDocument({ ...props, documentId }));
    } catch (err) {
      if (!isAppError(err)) {
        logger("document").error({ err, documentId }, "bulk approval of a document failed");
      }
      result.failed.push({
        id: documentId,
        message: isAppError(err) ? err.message : "This document could not be approved. Please try again.",
      });
    }
  }
  return result;
}
