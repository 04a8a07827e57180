import { checkPermissions } from "@gateway/auth/checkPermissions";
import { builder, PUBLIC } from "@gateway/graphql/builder";
import type { PermissionCheckResult } from "@schema/api/user";

export const PermissionCheckRef = builder.objectRef<PermissionCheckResult>("PermissionCheck").implement({
  description: "Whether the caller is an administrator and holds the permissions asked about.",
  fields: (t) => ({
    isAdmin: t.exposeBoolean("isAdmin"),
    hasPermissions: t.exposeBoolean("hasPermissions"),
    exactPermissions: t.exposeStringList("exactPermissions"),
    message: t.exposeString("message"),
  }),
});

builder.queryField("checkPermissions", (t) =>
  t.field({
    type: PermissionCheckRef,
    description: "Whether the caller holds every listed permission (signed out: the not-admin result).",
    authScopes: PUBLIC,
    args: { permissions: t.arg.stringList({ required: false }) },
    resolve: (_root, args, ctx) =>
      checkPermissions({ userType: ctx.currentUser?.userType ?? null, requested: args.permissions ?? [] }),
  }),
);
