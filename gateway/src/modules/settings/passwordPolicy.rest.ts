import { handle } from "@gateway/http/handle";
import type { Db } from "@services/shared/db";
import { passwordPolicy } from "@services/user";
import { Router } from "express";

/**
 * GET /api/password-policy (mounted at /password-policy, public): the shortest password the security
 * settings allow, which the registration, reset, change-password and invitation forms check and show.
 */
export function passwordPolicyRouter(deps: { db: Db }): Router {
  const router = Router();
  router.get(
    "/",
    handle(async (_req, res) => {
      res.setHeader("Cache-Control", "no-cache");
      res.json(await passwordPolicy(deps.db));
    }),
  );
  return router;
}
