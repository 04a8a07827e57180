import SchemaBuilder from "@pothos/core";
import ErrorsPlugin from "@pothos/plugin-errors";
import PrismaPlugin from "@pothos/plugin-prisma";
import RelayPlugin from "@pothos/plugin-relay";
import ScopeAuthPlugin from "@pothos/plugin-scope-auth";
import ValidationPlugin from "@pothos/plugin-validation";
import { AppError } from "@services/shared/errors";
import type PrismaTypes from "@services/shared/generated/pothos-prisma-types";
import { getDatamodel } from "@services/shared/generated/pothos-prisma-types";
import { isAdminType, isClientType, type Permission, type PermissionScope } from "../auth/permissions";
import type { GraphQLContext } from "./context";

/**
 * The Pothos schema builder. It sets up plugins, scalars' TypeScript shapes and auth scopes, and
 * defines no GraphQL types: each type lives in its own file under ./types.
 *
 * Auth scopes: `public` (always granted), `loggedIn`, `admin` (mainAdmin or userAdmin), `client`
 * (client, mainAdmin, userAdmin) and one per permission of spec §6 (manage:users → manageUsers...).
 * Every root field must state its authScopes; use {@link PUBLIC} for fields anyone may call.
 */

type AuthScopes = { public: boolean; loggedIn: boolean; admin: boolean; client: boolean } & Record<
  PermissionScope,
  boolean
>;

export interface BuilderTypes {
  Context: GraphQLContext;
  AuthScopes: AuthScopes;
  PrismaTypes: PrismaTypes;
  DefaultFieldNullability: false;
  Scalars: {
    ID: { Input: string; Output: string | number };
    DateTime: { Input: Date; Output: Date | string };
    JSON: { Input: unknown; Output: unknown };
    EmailAddress: { Input: string; Output: string };
    URL: { Input: URL; Output: URL | string };
    SafeInt: { Input: number; Output: number | bigint };
  };
}

/** authScopes value of a field anyone may call, signed in or not. */
export const PUBLIC = { public: true } as const;

export const builder = new SchemaBuilder<BuilderTypes>({
  plugins: [ScopeAuthPlugin, PrismaPlugin, ErrorsPlugin, ValidationPlugin, RelayPlugin],
  defaultFieldNullability: false,
  scopeAuth: {
    authScopes: (ctx) => {
      const user = ctx.currentUser;
      const has = (permission: Permission) => user?.permissions.includes(permission) ?? false;
      return {
        public: true,
        loggedIn: user !== null,
        admin: user !== null && isAdminType(user.userType),
        client: user !== null && isClientType(user.userType),
        manageUsers: has("manage:users"),
        manageConfig: has("manage:config"),
        readAllDocuments: has("read:all_documents"),
        approveDocuments: has("approve:documents"),
        manageEsrtSync: has("manage:esrt_sync"),
        manageEmails: has("manageEmails"),
        manageAppointments: has("manage:appointments"),
      };
    },
    unauthorizedError: (_parent, ctx) =>
      ctx.currentUser
        ? new AppError("FORBIDDEN", "You don't have the necessary permissions to access this area.")
        : new AppError("UNAUTHENTICATED", "Unauthorized - Please log in"),
  },
  prisma: {
    client: (ctx) => ctx.db.prisma,
    dmmf: getDatamodel(),
    exposeDescriptions: false,
    filterConnectionTotalCount: true,
    onUnusedQuery: process.env.NODE_ENV === "production" ? null : "warn",
  },
  errors: { defaultTypes: [] },
  validation: {
    validationError: (failure) =>
      new AppError("VALIDATION_FAILED", failure.issues[0]?.message ?? "Invalid input", {
        details: {
          issues: failure.issues.map((issue) => ({
            message: issue.message,
            path: (issue.path ?? []).map((p) => String(typeof p === "object" ? p.key : p)),
          })),
        },
      }),
  },
  relay: {
    clientMutationId: "omit",
    cursorType: "String",
    nodeQueryOptions: { authScopes: { loggedIn: true } },
    nodesQueryOptions: { authScopes: { loggedIn: true } },
  },
});
