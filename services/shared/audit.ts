import type { Prisma } from "./generated/prisma/client";

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
  ip?: string | null;
  /** client-safe facts only: never a password, token or answer */
  metadata?: Prisma.InputJsonValue;
}

/**
 * Records an entry in the audit log (audit_logs), inside the caller's transaction when given one.
 * @throws Prisma errors when the row cannot be written.
 */
export async function audit(writer: AuditWriter, entry: AuditEntry): Promise<void> {
  await writer.auditLog.create({
    data: {
      action: entry.action,
      actorId: entry.actorId,
      targetType: entry.targetType ?? null,
      targetId: entry.targetId === undefined ? null : String(entry.targetId),
      ip: entry.ip ?? null,
      metadata: entry.metadata,
    },
  });
}
