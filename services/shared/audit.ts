import type { Prisma } from "./generated/prisma/client";
import { currentRequest } from "./requestContext";

/** Anything that can write rows: the Prisma client or a transaction client. */
interface AuditWriter {
  auditLog: { create(args: { data: Prisma.AuditLogUncheckedCreateInput }): Promise<unknown> };
}

/** One security-relevant action: who did what to whom, from where. */
export interface AuditEntry {
  /** dotted name, e.g. "user.login_succeeded", "user.password_changed" */
  action: string;
  /** the signed-in user who acted (null: anonymous or the system) */
  actorId: number | null;
  targetType?: string;
  targetId?: string | number;
  /** the client's address (default: the current request's, see ./requestContext) */
  ip?: string | null;
  /** the request's id (default: the current request's) */
  requestId?: string | null;
  /** the target's state before and after the change (default: metadata's from/to or before/after) */
  before?: Prisma.InputJsonValue | null;
  after?: Prisma.InputJsonValue | null;
  /** client-safe facts only: never a password, token or answer */
  metadata?: Prisma.InputJsonValue;
}

type Json = Prisma.InputJsonValue | null | undefined;

/** metadata's `key`, when metadata is an object that has it. */
function metadataField(metadata: Json, key: string): Json {
  if (metadata === null || typeof metadata !== "object" || Array.isArray(metadata)) return undefined;
  return Object.hasOwn(metadata, key) ? (metadata as Record<string, Json>)[key] : undefined;
}

/** A JSON column's value: SQL NULL for null or undefined. */
function jsonColumn(value: Json): Prisma.InputJsonValue | undefined {
  return value === null || value === undefined ? undefined : value;
}

/**
 * Records an entry in the audit log (audit_logs), inside the caller's transaction when given one.
 * The address and request id default to the current request's (services/shared/requestContext);
 * before and after default to metadata's `from`/`to` (or `before`/`after`).
 * @throws Prisma errors when the row cannot be written.
 */
export async function audit(writer: AuditWriter, entry: AuditEntry): Promise<void> {
  const request = currentRequest();
  const before =
    entry.before ?? metadataField(entry.metadata, "before") ?? metadataField(entry.metadata, "from");
  const after = entry.after ?? metadataField(entry.metadata, "after") ?? metadataField(entry.metadata, "to");
  await writer.auditLog.create({
    data: {
      action: entry.action,
      actorId: entry.actorId,
      targetType: entry.targetType ?? null,
      targetId: entry.targetId === undefined ? null : String(entry.targetId),
      ip: entry.ip ?? request?.ip ?? null,
      requestId: entry.requestId ?? request?.requestId ?? null,
      before: jsonColumn(before),
      after: jsonColumn(after),
      metadata: entry.metadata,
    },
  });
}
