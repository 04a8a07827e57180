import type { UserTypeName } from "@schema/validation/user";

// The permission matrix, shared: the gateway enforces it (gateway/src/auth/permissions.ts), the web
// app's tests build admins from it.

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
export const rolePermissions: Record<UserTypeName, readonly Permission[]> = {
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
