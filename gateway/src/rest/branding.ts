import { Router } from "express";
import type { Db } from "../../../services/shared/db";
import { getPublicBranding } from "../../../services/user/getPublicBranding";
import { handle } from "./handle";

/**
 * GET /api/branding (mounted at /branding): the public branding every page may show, cacheable for
 * five minutes.
 */
export function brandingRouter(deps: { db: Db }): Router {
  const router = Router();
  router.get(
    "/",
    handle(async (_req, res) => {
      res.setHeader("Cache-Control", "public, max-age=300");
      res.json(await getPublicBranding({ db: deps.db }));
    }),
  );
  return router;
}
