import { requirePermitted } from "@gateway/auth/actor";
import { csrfGuard } from "@gateway/http/csrf";
import { handle } from "@gateway/http/handle";
import { parseInput } from "@gateway/input";
import { IMPORT_MAX_BYTES } from "@schema/validation/userAdmin";
import { importClients } from "@services/user";
import express, { type NextFunction, type Request, type Response, Router } from "express";
import { z } from "zod";
import { clientIp, type IdentityDeps } from "../identity/session";

/** Where the client import is posted; mounted before the app's small JSON body limit applies. */
export const USER_IMPORT_PATH = "/api/admin/users/import";

// a 2 MB file grows when written as a JSON string (quotes and line ends escaped)
const BODY_LIMIT = IMPORT_MAX_BYTES * 2 + 64 * 1024;

/** The import's JSON body: the CSV file as text, and whether to only check it. */
export const importBodySchema = z.object({
  csv: z
    .string({ error: "Choose a CSV file" })
    .max(IMPORT_MAX_BYTES, "The file is larger than 2 MB. Please split it into smaller files."),
  dryRun: z.boolean({ error: "dryRun must be true or false" }),
});

/**
 * Refuses a caller without manage:users (401 signed out, 403 otherwise) before the body is read: the
 * import's large body is parsed for an administrator only.
 */
function manageUsersFirst(_req: Request, res: Response, next: NextFunction): void {
  try {
    requirePermitted(res, "manage:users");
  } catch (err) {
    // the refusal goes out at once; Node drops whatever of the body is still on its way
    next(err);
    return;
  }
  next();
}

/**
 * POST /api/admin/users/import (manage:users), JSON `{ csv, dryRun }`: checks a CSV file of clients
 * and answers the report of every row's errors; unless dryRun, also the job that creates the
 * accepted rows as clients and invites them (its progress: the userBulkJob GraphQL query). The
 * caller is authorised before its body (up to about 4 MB) is read.
 */
export function userImportRouter(deps: IdentityDeps): Router {
  const router = Router();
  router.post(
    "/",
    csrfGuard(deps.config),
    manageUsersFirst,
    express.json({ limit: BODY_LIMIT }),
    handle(async (req: Request, res: Response) => {
      const user = requirePermitted(res, "manage:users");
      const body = parseInput(importBodySchema, req.body);
      res.setHeader("Cache-Control", "no-store");
      res.json(
        await importClients({
          db: deps.db,
          actor: { id: user.id, userType: user.userType },
          csv: body.csv,
          dryRun: body.dryRun,
          ip: clientIp(req),
        }),
      );
    }),
  );
  return router;
}
