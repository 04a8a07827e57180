import type { PermissionCheckResult } from "@schema/api/user";
import type { UserType } from "@services/shared/generated/prisma/enums";
import { isAdminType, permissionsOf } from "./permissions";

/**
 * The permission check of spec §3 for a user type (or a signed-out visitor: null): isAdmin for
 * mainAdmin/userAdmin, hasPermissions when every requested permission is held, exactPermissions all
 * the permissions held.
 */
export function checkPermissions(props: {
  userType: UserType | null;
  requested: readonly string[];
}): PermissionCheckResult {
  if (props.userType === null) {
    return {
      isAdmin: false,
      hasPermissions: false,
      exactPermissions: [],
      message: "Unauthorized - Please log in",
    };
  }
  const held: readonly string[] = permissionsOf(props.userType);
  const hasPermissions = props.requested.every((p) => held.includes(p));
  const missing = props.requested.filter((p) => !held.includes(p));
  return {
    isAdmin: isAdminType(props.userType),
    hasPermissions,
    exactPermissions: [...held],
    message: hasPermissions ? "Permission check passed" : `Missing permissions: ${missing.join(", ")}`,
  };
}
