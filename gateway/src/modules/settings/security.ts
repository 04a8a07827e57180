import { builder, PUBLIC } from "@gateway/graphql/builder";
import { caller } from "@gateway/graphql/context";
import { dbQuery } from "@gateway/graphql/dbQuery";
import { runIdentity } from "@gateway/graphql/run";
import { AppError } from "@services/shared/errors";
import {
  getSecuritySettings,
  passwordPolicy,
  SESSION_TIMINGS,
  type SecuritySettingsView,
  signOutEveryoneElse,
  updateSecuritySettings,
} from "@services/user";
import { clientIp, restampSession, revokeSessions } from "../identity/session";

// Security settings (issue 12, manage:config): the sign-in switches, the password minimum and the
// sign-in rate limits (bounded by schema/validation/security.ts), the spec's session timings
// read-only, and "Sign out everyone else".

const SessionTimingsRef = builder.objectRef<typeof SESSION_TIMINGS>("SessionTimings").implement({
  description: "The session timings (idle timeout, its warning and the checks); read-only.",
  fields: (t) => ({
    idleTimeoutMinutes: t.exposeInt("idleTimeoutMinutes"),
    idleWarningMinutes: t.exposeInt("idleWarningMinutes"),
    idleCheckSeconds: t.exposeInt("idleCheckSeconds"),
    sessionCheckMinutes: t.exposeInt("sessionCheckMinutes"),
    absoluteLifetimeHours: t.exposeInt("absoluteLifetimeHours"),
  }),
});

const SecuritySettingsRef = builder.objectRef<SecuritySettingsView>("SecuritySettings").implement({
  description: "How sign-in and passwords are checked; every change applies to the next sign-in.",
  fields: (t) => ({
    requireVerifiedEmail: t.exposeBoolean("requireVerifiedEmail"),
    revealUnknownAccounts: t.exposeBoolean("revealUnknownAccounts"),
    requireEnhancedForAdmins: t.exposeBoolean("requireEnhancedForAdmins"),
    requireTwoFactorForAdmins: t.exposeBoolean("requireTwoFactorForAdmins", {
      description: "Administrators (mainAdmin, userAdmin) must sign in with a second factor.",
    }),
    requireTwoFactorForEveryone: t.exposeBoolean("requireTwoFactorForEveryone", {
      description: "Every user must sign in with a second factor.",
    }),
    minPasswordLength: t.exposeInt("minPasswordLength"),
    loginIpAttempts: t.exposeInt("loginIpAttempts", {
      description: "failed sign-ins per address per 15 minutes",
    }),
    loginAccountFreeFailures: t.exposeInt("loginAccountFreeFailures"),
    loginAccountMaxDelayMinutes: t.exposeInt("loginAccountMaxDelayMinutes"),
    adminsWithoutQuestions: t.exposeInt("adminsWithoutQuestions", {
      description: "active administrators without security questions",
    }),
    sessionTimings: t.field({ type: SessionTimingsRef, resolve: (s) => s.sessionTimings }),
    updatedAt: t.field({ type: "DateTime", nullable: true, resolve: (s) => s.updatedAt }),
    updatedBy: t.exposeString("updatedBy", { nullable: true }),
  }),
});

const PasswordPolicyRef = builder.objectRef<{ minLength: number }>("PasswordPolicy").implement({
  description: "What a new password must meet beyond the digit and special character every password needs.",
  fields: (t) => ({ minLength: t.exposeInt("minLength") }),
});

const SignOutResultRef = builder
  .objectRef<{ at: Date; accounts: number }>("SignOutEveryoneResult")
  .implement({
    description: "Every session granted before `at` ends at its next request, the caller's own excepted.",
    fields: (t) => ({
      at: t.field({ type: "DateTime", resolve: (r) => r.at }),
      accounts: t.exposeInt("accounts"),
    }),
  });

const SecuritySettingsInput = builder.inputType("SecuritySettingsInput", {
  description:
    "The security settings form; each number must lie within its bounds (a minimum password length of 8 to 64, for one).",
  fields: (t) => ({
    requireVerifiedEmail: t.boolean({ required: true }),
    revealUnknownAccounts: t.boolean({ required: true }),
    requireEnhancedForAdmins: t.boolean({ required: true }),
    requireTwoFactorForAdmins: t.boolean({ description: "Left out: unchanged." }),
    requireTwoFactorForEveryone: t.boolean({ description: "Left out: unchanged." }),
    minPasswordLength: t.int({ required: true }),
    loginIpAttempts: t.int({ required: true }),
    loginAccountFreeFailures: t.int({ required: true }),
    loginAccountMaxDelayMinutes: t.int({ required: true }),
  }),
});

dbQuery("securitySettings", {
  type: SecuritySettingsRef,
  description: "The security settings and the session timings (manage:config).",
  authScopes: { manageConfig: true },
  read: getSecuritySettings,
});

dbQuery("passwordPolicy", {
  type: PasswordPolicyRef,
  description: "The shortest password allowed (public: the registration form shows it).",
  authScopes: PUBLIC,
  read: passwordPolicy,
});

builder.mutationField("updateSecuritySettings", (t) =>
  t.field({
    type: SecuritySettingsRef,
    description: "Changes the security settings (manage:config); the next sign-in follows them. Audited.",
    authScopes: { manageConfig: true },
    errors: { types: [AppError] },
    args: { input: t.arg({ type: SecuritySettingsInput, required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(async () =>
        updateSecuritySettings({
          db: ctx.db,
          actor: caller(ctx),
          input: args.input,
          ip: clientIp(ctx.req),
        }),
      ),
  }),
);

builder.mutationField("signOutEveryoneElse", (t) =>
  t.field({
    type: SignOutResultRef,
    description: "Ends every session but the caller's own (manage:config). Audited.",
    authScopes: { manageConfig: true },
    errors: { types: [AppError] },
    resolve: (_root, _args, ctx) =>
      runIdentity(async () => {
        const actor = caller(ctx);
        const result = await signOutEveryoneElse({ db: ctx.db, actor, ip: clientIp(ctx.req) });
        // the caller's session stays valid; their other sessions are destroyed outright
        await restampSession(ctx.req);
        await revokeSessions(ctx.identity, actor.id, ctx.req.sessionID);
        return result;
      }),
  }),
);
