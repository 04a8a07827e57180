import { once } from "node:events";
import { requirePermitted } from "@gateway/auth/actor";
import { handle } from "@gateway/http/handle";
import { parseInput } from "@gateway/input";
import {
  type UserFilter,
  type UserSort,
  userFilterSchema,
  userSortSchema,
} from "@schema/validation/userDirectory";
import { csvWriter } from "@services/shared/csv";
import type { Db } from "@services/shared/db";
import { logger } from "@services/shared/logger";
import { auditExport, DIRECTORY_COLUMNS, exportBatches } from "@services/user";
import { type Request, type Response, Router } from "express";
import { clientIp } from "../identity/session";

// GET /api/admin/users/export.csv (issue 11, manage:users): the user directory's current filter and
// order as a CSV download, streamed in keyset batches, cells escaped against formula injection, and
// recorded in the audit log ("user.exported", with the filter and the row count).

export const EXPORT_FORBIDDEN_MESSAGE = "You don't have permission to manage users";

const LIST_PARAMS = ["userTypes", "userStatuses", "accessLevels"] as const;
const BOOLEAN_PARAMS = ["emailVerified", "esrtSynced"] as const;
const TEXT_PARAMS = ["q", "createdFrom", "createdTo", "lastLoginFrom", "lastLoginTo"] as const;

/**
 * The filter and sort of the query string, in the shapes the shared schemas parse: lists as repeated
 * or comma-separated values, booleans as true/false, the sort as `sort` and `direction`.
 */
function queryInput(query: Request["query"]): {
  filter: Record<string, unknown>;
  sort: Record<string, unknown>;
} {
  const filter: Record<string, unknown> = {};
  for (const name of TEXT_PARAMS)
    if (query[name] !== undefined && query[name] !== "") filter[name] = query[name];
  for (const name of LIST_PARAMS) {
    const value = query[name];
    if (value === undefined || value === "") continue;
    filter[name] =
      typeof value === "string"
        ? value.split(",").filter(Boolean)
        : Array.isArray(value)
          ? (value as unknown[]).flatMap((v) => (typeof v === "string" ? v.split(",").filter(Boolean) : [v]))
          : value;
  }
  for (const name of BOOLEAN_PARAMS) {
    const value = query[name];
    if (value === undefined || value === "") continue;
    filter[name] = value === "true" ? true : value === "false" ? false : value;
  }
  const sort: Record<string, unknown> = {};
  if (query.sort !== undefined && query.sort !== "") sort.by = query.sort;
  if (query.direction !== undefined && query.direction !== "") sort.direction = query.direction;
  return { filter, sort };
}

/**
 * The export's filter and sort from the query string.
 * @throws AppError VALIDATION_FAILED with the shared schemas' messages.
 */
export function exportParams(query: Request["query"]): { filter: UserFilter; sort: UserSort } {
  const input = queryInput(query);
  return { filter: parseInput(userFilterSchema, input.filter), sort: parseInput(userSortSchema, input.sort) };
}

/** Writes one row, waiting while the answer's buffer is full (so memory holds about one batch). */
async function writeRow(writer: ReturnType<typeof csvWriter>, row: object): Promise<void> {
  if (!writer.write(row)) await once(writer, "drain");
}

export function userDirectoryRouter(deps: { db: Db }): Router {
  const router = Router();
  const log = logger("user-export");

  router.get(
    "/admin/users/export.csv",
    handle(async (req: Request, res: Response) => {
      const actor = requirePermitted(res, "manage:users", EXPORT_FORBIDDEN_MESSAGE);
      const { filter, sort } = exportParams(req.query);
      const day = new Date().toISOString().slice(0, 10);
      res.setHeader("Cache-Control", "no-store");
      res.setHeader("Content-Type", "text/csv; charset=utf-8");
      res.attachment(`users-${day}.csv`);
      const writer = csvWriter(DIRECTORY_COLUMNS);
      writer.pipe(res);
      let closed = false;
      res.once("close", () => {
        closed = true;
        // the reader went away: let a pending drain wait end
        writer.emit("drain");
      });
      let rows = 0;
      let complete = false;
      try {
        for await (const batch of exportBatches(deps.db, { filter, sort })) {
          for (const user of batch) {
            if (closed) break;
            await writeRow(writer, user);
            rows += 1;
          }
          if (closed) break;
        }
        complete = !closed;
        writer.end();
      } catch (err) {
        writer.unpipe(res);
        // nothing sent yet: the error handler answers; else the download ends cut short
        if (!res.headersSent) throw err;
        log.error({ err }, "user export failed part way");
        res.destroy();
      } finally {
        await auditExport(deps.db, {
          actorId: actor.id,
          ip: clientIp(req),
          filter,
          sort,
          rows,
          complete,
        });
      }
    }),
  );

  return router;
}
