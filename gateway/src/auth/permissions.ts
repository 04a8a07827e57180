import type { UserType } from "@services/shared/generated/prisma/enums";

/** Permission names of spec §6, as the web client asks for them. */
export const permissions = [
  "manage:users",
  "manage:config",
  "read:all_documents",
  "approve:documents",
  "manage:esrt_sync",
  "manageEmails",
  "manage:appointments",
] as const;

export type Permission = (typeof permissions)[number];

/** Which user type holds which permission (DECISIONS.md, Roles and permissions). */
export const rolePermissions: Record<UserType, readonly Permission[]> = {
  mainAdmin: permissions,
  userAdmin: [
    "manage:users",
    "read:all_documents",
    "approve:documents",
    "manage:esrt_sync",
    "manage:appointments",
  ],
  client: [],
  prospect: [],
  user: [],
};

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
