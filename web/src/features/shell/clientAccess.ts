import type { UserTypeName } from "@schema/validation/user";

/** Where prospects and plain users go from a client-only page. */
export const PROSPECT_LANDING_PATH = "/prospect-landing";
/** Spec §9: the 'Access Restricted' toast shows 100 ms after the redirect. */
export const PROSPECT_TOAST_DELAY_MS = 100;

/** Whether a user type may open client-only pages (shared DECISIONS: client, mainAdmin, userAdmin). */
export function isClientUserType(userType: UserTypeName): boolean {
  return userType === "client" || userType === "mainAdmin" || userType === "userAdmin";
}
