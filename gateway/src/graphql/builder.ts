import SchemaBuilder from "@pothos/core";
import ErrorsPlugin from "@pothos/plugin-errors";
import ScopeAuthPlugin from "@pothos/plugin-scope-auth";
import { AppError } from "@services/shared/errors";
import { FORBIDDEN_MESSAGE, holds, limitRefusal, UNAUTHORIZED_MESSAGE } from "../auth/actor";
import { isAdminType, isClientType, type Permission, type PermissionScope } from "../auth/permissions";
import type { GraphQLContext } from "./context";

/**
 * The Pothos schema builder. It sets up plugins, scalars' TypeScript shapes and auth scopes, and
 * defines no GraphQL types: each type lives in its domain's module (../modules/<domain>/), and
 * ./schema.ts imports them. Loaded plugins: scope-auth (every root field states its authScopes) and
 * errors (expected failures as AppError results).
 *
 * Auth scopes: `public` (always granted), `loggedIn`, `session` (signed in, or a limited session:
 * the session's own account only), `twoFactorSetup` (signed in, or limited to enrolling a second
 * factor), `admin` (mainAdmin or userAdmin), `client`
 * (client, mainAdmin, userAdmin) and one per permission of spec §6 (manage:users → manageUsers...).
 * Every root field must state its authScopes; use {@link PUBLIC} for fields anyone may call.
 */

type AuthScopes = {
  public: boolean;
  loggedIn: boolean;
  /** signed in, or a limited session (verifying its email, enrolling a second factor): its own account */
  session: boolean;
  /** signed in, or a session limited to enrolling a second factor: two-factor sign-in's own page */
  twoFactorSetup: boolean;
  admin: boolean;
  client: boolean;
} & Record<PermissionScope, boolean>;

export interface BuilderTypes {
  Context: GraphQLContext;
  AuthScopes: AuthScopes;
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
  plugins: [ScopeAuthPlugin, ErrorsPlugin],
  defaultFieldNullability: false,
  scopeAuth: {
    authScopes: (ctx) => {
      const user = ctx.currentUser;
      const has = (permission: Permission) => holds(user, permission);
      return {
        public: true,
        loggedIn: user !== null,
        session: user !== null || ctx.limitedTo !== null,
        twoFactorSetup: user !== null || ctx.limitedTo === "twoFactorEnrolment",
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
      ctx.limitedTo
        ? limitRefusal(ctx.limitedTo)
        : ctx.currentUser
          ? new AppError("FORBIDDEN", FORBIDDEN_MESSAGE)
          : new AppError("UNAUTHENTICATED", UNAUTHORIZED_MESSAGE),
  },
  errors: { defaultTypes: [] },
});

/** The builder's schema types, for helpers that take Pothos field builders (./keysetPage...). */
export type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;
