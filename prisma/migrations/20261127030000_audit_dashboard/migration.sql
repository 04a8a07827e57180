-- Audit log and admin dashboard (issue 11): each audit row keeps the request it was taken in and the
-- target's state before and after; the audit view pages by (createdAt, id) and filters actions by
-- prefix (LIKE 'user.%', a text_pattern_ops index).
ALTER TABLE "audit_logs" ADD COLUMN "requestId" TEXT;
ALTER TABLE "audit_logs" ADD COLUMN "before" JSONB;
ALTER TABLE "audit_logs" ADD COLUMN "after" JSONB;

-- CreateIndex
CREATE INDEX "audit_logs_createdAt_id_idx" ON "audit_logs"("createdAt", "id");

-- CreateIndex
CREATE INDEX "audit_logs_requestId_idx" ON "audit_logs"("requestId");

-- CreateIndex
CREATE INDEX "audit_logs_action_prefix_idx" ON "audit_logs"("action" text_pattern_ops, "createdAt");
