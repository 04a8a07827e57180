import { revalidatedReadRouter } from "@gateway/http/handle";
import type { Db } from "@services/shared/db";
import { getPublicBranding } from "@services/user";
import type { Router } from "express";

/**
 * GET /api/branding (mounted at /branding): the public branding every page may show. Browsers
 * revalidate it on each read (an unchanged answer is a 304), so a change shows on the next load.
 */
export function brandingRouter(deps: { db: Db }): Router {
  return revalidatedReadRouter(() => getPublicBranding({ db: deps.db }));
}
