// STUB: replaced at merge by DASH

/** Props of the audit trail (the contract of the common brief). */
export interface AuditTrailProps {
  targetUserId?: number;
  actorId?: number;
  compact?: boolean;
}

/** The audit table; DASH's version replaces this stub at merge. */
export function AuditTrail(_props: AuditTrailProps) {
  return null;
}
