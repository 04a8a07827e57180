import { once } from "node:events";
import { FORBIDDEN_MESSAGE, requireCaller } from "@gateway/auth/actor";
import { isAdminType } from "@gateway/auth/permissions";
import { handle } from "@gateway/http/handle";
import { audit } from "@services/shared/audit";
import { auditEntriesInBatches, parseAuditFilter } from "@services/shared/auditLog";
import { csvWriter } from "@services/shared/csv";
import type { Db } from "@services/shared/db";
import { AppError } from "@services/shared/errors";
import { findUserNames } from "@services/user";
import { type Request, type Response, Router } from "express";

export const AUDIT_EXPORT_PATH = "/admin/audit/export.csv";

const COLUMNS = [
  "time",
  "action",
  "actorId",
  "actor",
  "targetType",
  "targetId",
  "target",
  "before",
  "after",
  "ip",
  "requestId",
  "details",
] as const;

const FILTER_PARAMS = ["action", "actionPrefix", "actorId", "targetUserId", "from", "to", "q"] as const;

/** The filter's query parameters (a repeated one stays a list, and the shared schema refuses it). */
function filterOf(req: Request): Record<string, unknown> {
  const filter: Record<string, unknown> = {};
  for (const name of FILTER_PARAMS) {
    const value = req.query[name];
    if (value !== undefined && value !== "") filter[name] = value;
  }
  return filter;
}

/**
 * GET /api/admin/audit/export.csv (any admin, like the audit view): the audit entries matching the
 * filter given as query parameters (action, actionPrefix, actorId, targetUserId, from, to, q; the
 * shared schema), newest first, as CSV streamed in keyset batches, every cell escaped against
 * formula injection. The export itself is audited (audit.exported).
 */
export function auditRouter(deps: { db: Db }): Router {
  const router = Router();
  router.get(
    AUDIT_EXPORT_PATH,
    handle(async (req: Request, res: Response) => {
      const user = requireCaller(res);
      if (!isAdminType(user.userType)) throw new AppError("FORBIDDEN", FORBIDDEN_MESSAGE);
      const filter = parseAuditFilter(filterOf(req));
      const readerPermissions = user.permissions;
      await audit(deps.db.prisma, {
        action: "audit.exported",
        actorId: user.id,
        metadata: JSON.parse(JSON.stringify({ filter })),
      });
      const stamp = new Date().toISOString().slice(0, 10);
      res.setHeader("Content-Type", "text/csv; charset=utf-8");
      res.setHeader("Content-Disposition", `attachment; filename="audit-${stamp}.csv"`);
      res.setHeader("Cache-Control", "no-store");
      // the first batch is read before anything is sent: a failure then is an ordinary error answer
      const batches = auditEntriesInBatches({
        db: deps.db,
        userNames: (ids) => findUserNames(deps.db, ids),
        filter,
        readerPermissions,
      });
      const first = await batches.next();
      const csv = csvWriter(COLUMNS);
      csv.pipe(res);
      try {
        const rest = async function* () {
          if (!first.done) yield first.value;
          yield* batches;
        };
        for await (const batch of rest()) {
          for (const e of batch) {
            const row = {
              time: e.createdAt,
              action: e.action,
              actorId: e.actorId,
              actor: e.actorName,
              targetType: e.targetType,
              targetId: e.targetId,
              target: e.targetName,
              before: e.before ?? null,
              after: e.after ?? null,
              ip: e.ip,
              requestId: e.requestId,
              details: e.metadata ?? null,
            };
            if (!csv.write(row)) await once(csv, "drain");
          }
          if (res.destroyed) return;
        }
        csv.end();
      } catch (err) {
        // the header is sent: the answer can only be cut short, and the error logged
        req.log.error({ err }, "audit export failed");
        csv.destroy();
        res.destroy();
      }
    }),
  );
  return router;
}
