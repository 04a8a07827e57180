import { type Permission, permissions, rolePermissions } from "@schema/api/permissions";
import type { UserType } from "@services/shared/generated/prisma/enums";

export { type Permission, permissions, rolePermissions };

/** GraphQL auth scope name of each permission (manage:users → manageUsers). */
export const permissionScopes = {
  "manage:users": "manageUsers",
  "manage:config": "manageConfig",
  "read:all_documents": "readAllDocuments",
  "approve:documents": "approveDocuments",
  "manage:esrt_sync": "manageEsrtSync",
  manageEmails: "manageEmails",
  "manage:appointments": "manageAppointments",
} as const satisfies Record<Permission, string>;

export type PermissionScope = (typeof permissionScopes)[Permission];

/** Whether a user type is one of the admin kinds (sees the admin area). */
export function isAdminType(userType: UserType): boolean {
  return userType === "mainAdmin" || userType === "userAdmin";
}

/** Whether a user type counts as a client for client-only features (DECISIONS.md, Who counts as a client). */
export function isClientType(userType: UserType): boolean {
  return userType === "client" || isAdminType(userType);
}

/** The permissions a user type holds. */
export function permissionsOf(userType: UserType): readonly Permission[] {
  return rolePermissions[userType];
}
