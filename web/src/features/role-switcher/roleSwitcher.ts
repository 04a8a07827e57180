import type { UserTypeName } from "@schema/validation/user";
import { isAdminType } from "@web/features/console/consoleUser";

// The role switcher's paths and where each role lands (issue 21).

/** The role switcher's page (never in production: the page answers 404 there). */
export const ROLE_SWITCHER_PATH = "/dev/roles";
/** The server's role switch: signs the session in as a demo user. */
export const ROLE_SWITCH_API = "/api/dev/roles/switch";

/** The page a role sees first: the Admin Dashboard for administrators, the console for the others. */
export function homeOf(userType: UserTypeName): string {
  return isAdminType(userType) ? "/admin/dashboard" : "/dashboard";
}
