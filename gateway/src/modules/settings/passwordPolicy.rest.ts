import { revalidatedReadRouter } from "@gateway/http/handle";
import type { Db } from "@services/shared/db";
import { passwordPolicy } from "@services/user";
import type { Router } from "express";

/**
 * GET /api/password-policy (mounted at /password-policy, public): the shortest password the security
 * settings allow, which the registration, reset, change-password and invitation forms check and show.
 */
export function passwordPolicyRouter(deps: { db: Db }): Router {
  return revalidatedReadRouter(() => passwordPolicy(deps.db));
}
