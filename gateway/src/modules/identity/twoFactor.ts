import { builder, PUBLIC } from "@gateway/graphql/builder";
import type { GraphQLContext } from "@gateway/graphql/context";
import { runIdentity } from "@gateway/graphql/run";
import { parseArgs, parseId } from "@gateway/input";
import {
  confirmAuthenticatorSchema,
  identityProofSchema,
  newPasskeySchema,
  passkeySignInSchema,
  renamePasskeySchema,
  secondFactorSchema,
} from "@schema/validation/twoFactor";
import { AppError } from "@services/shared/errors";
import type { User } from "@services/shared/generated/prisma/client";
import {
  type PasskeyView,
  regenerateRecoveryCodes,
  removeAuthenticator,
  removePasskey,
  renamePasskey,
  startAuthenticator,
  type TwoFactorStatus,
  turnOffTwoFactor,
} from "@services/user";
import { clientIp, requireEnrollingUser } from "./session";
import {
  addPasskey,
  completeTwoFactorSignIn,
  confirmAuthenticator,
  confirmIdentity,
  confirmIdentityPasskeyOptions,
  newPasskeyOptions,
  passkeySignIn,
  passkeySignInOptions,
  requireFreshProof,
  secondFactorPasskeyOptions,
  twoFactorStatus,
} from "./twoFactorSteps";
import { LoginResultRef, loginResult, SecondFactorMethodEnum } from "./user";

// Two-factor sign-in on GraphQL (issue 20): the sign-in's second step and passkey sign-in (as the
// REST shims POST /api/login/two-factor and /api/login/passkey), and the owner's management of
// their second factors (the user menu's "Two-factor sign-in"). A change needs a proof of identity
// (confirmIdentity) from the last five minutes; a session limited to enrolling may use all of it.

const SETUP = { twoFactorSetup: true } as const;

const PasskeyRef = builder.objectRef<PasskeyView>("Passkey").implement({
  description: "One of the user's passkeys.",
  fields: (t) => ({
    id: t.exposeInt("id"),
    name: t.exposeString("name"),
    createdAt: t.field({ type: "DateTime", resolve: (p) => p.createdAt }),
    lastUsedAt: t.field({ type: "DateTime", nullable: true, resolve: (p) => p.lastUsedAt }),
    backedUp: t.exposeBoolean("backedUp", {
      description: "Synced by a passkey provider (a phone's or browser's password manager).",
    }),
  }),
});

const TwoFactorStatusRef = builder
  .objectRef<TwoFactorStatus & { confirmedUntil: Date | null }>("TwoFactorStatus")
  .implement({
    description: "The signed-in user's two-factor sign-in.",
    fields: (t) => ({
      enabled: t.exposeBoolean("enabled", { description: "A second factor is asked at every sign-in." }),
      required: t.exposeBoolean("required", {
        description: "The security settings require a second factor of this user.",
      }),
      authenticatorAddedAt: t.field({
        type: "DateTime",
        nullable: true,
        description: "When the authenticator app was set up; null without one.",
        resolve: (s) => s.authenticator?.addedAt ?? null,
      }),
      passkeys: t.field({ type: [PasskeyRef], resolve: (s) => s.passkeys }),
      recoveryCodesLeft: t.exposeInt("recoveryCodesLeft"),
      confirmedUntil: t.field({
        type: "DateTime",
        nullable: true,
        description:
          "Until when changes need no new proof of identity (confirmIdentity); null: one is needed.",
        resolve: (s) => s.confirmedUntil,
      }),
    }),
  });

const AuthenticatorSetupRef = builder
  .objectRef<{ secret: string; otpauthUri: string }>("AuthenticatorSetup")
  .implement({
    description:
      "A new authenticator app's secret: scan the URI's QR code or type the secret, then confirm a code.",
    fields: (t) => ({
      secret: t.exposeString("secret", { description: "Base32, as authenticator apps take it." }),
      otpauthUri: t.exposeString("otpauthUri"),
    }),
  });

const EnrolmentResultRef = builder
  .objectRef<{ recoveryCodes: string[] | null; passkey?: PasskeyView }>("TwoFactorEnrolment")
  .implement({
    description: "A second factor set up; the recovery codes when these are the user's first (shown once).",
    fields: (t) => ({
      recoveryCodes: t.stringList({ nullable: true, resolve: (r) => r.recoveryCodes }),
      passkey: t.field({ type: PasskeyRef, nullable: true, resolve: (r) => r.passkey ?? null }),
    }),
  });

const IdentityProofMethodEnum = builder.enumType("IdentityProofMethod", {
  values: ["password", "totp", "recovery_code", "passkey"] as const,
});

/** The user's two-factor page (after a change). */
function statusAfter(ctx: GraphQLContext) {
  return twoFactorStatus(ctx.identity, ctx.req, ctx.res);
}

builder.queryField("twoFactorStatus", (t) =>
  t.field({
    type: TwoFactorStatusRef,
    description: "The signed-in user's second factors (also while the session may only set them up).",
    authScopes: SETUP,
    resolve: (_root, _args, ctx) => runIdentity(() => statusAfter(ctx)),
  }),
);

builder.mutationField("loginTwoFactor", (t) =>
  t.field({
    type: LoginResultRef,
    description:
      "Completes a sign-in whose password was accepted (login answered twoFactorRequired) with a second factor: a code (totp, recovery_code) or a passkey's answer to secondFactorPasskeyOptions.",
    authScopes: PUBLIC,
    errors: { types: [AppError] },
    args: {
      method: t.arg({ type: SecondFactorMethodEnum, required: true }),
      code: t.arg.string(),
      response: t.arg({ type: "JSON" }),
    },
    resolve: (_root, args, ctx) =>
      runIdentity(async () =>
        loginResult(
          await completeTwoFactorSignIn(ctx.identity, ctx.req, ctx.res, parseArgs(secondFactorSchema, args)),
        ),
      ),
  }),
);

builder.mutationField("loginWithPasskey", (t) =>
  t.field({
    type: LoginResultRef,
    description: "Signs in with a passkey alone: the browser's answer to passkeySignInOptions.",
    authScopes: PUBLIC,
    errors: { types: [AppError] },
    args: { response: t.arg({ type: "JSON", required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(async () => {
        const { response } = parseArgs(passkeySignInSchema, args);
        return loginResult(await passkeySignIn(ctx.identity, ctx.req, ctx.res, response));
      }),
  }),
);

builder.mutationField("confirmIdentity", (t) =>
  t.field({
    type: "DateTime",
    description:
      "Proves who you are again (your password, or a second factor) before changing two-factor sign-in; answers until when changes are allowed (five minutes).",
    authScopes: SETUP,
    errors: { types: [AppError] },
    args: {
      method: t.arg({ type: IdentityProofMethodEnum, required: true }),
      password: t.arg.string(),
      code: t.arg.string(),
      response: t.arg({ type: "JSON" }),
    },
    resolve: (_root, args, ctx) =>
      runIdentity(async () => {
        const proof = parseArgs(identityProofSchema, args);
        return (await confirmIdentity(ctx.identity, ctx.req, ctx.res, proof)).confirmedUntil;
      }),
  }),
);

builder.mutationField("startAuthenticator", (t) =>
  t.field({
    type: AuthenticatorSetupRef,
    description:
      "Starts setting up an authenticator app; it counts once confirmAuthenticator accepts a first code.",
    authScopes: SETUP,
    errors: { types: [AppError] },
    resolve: (_root, _args, ctx) =>
      runIdentity(() => startAuthenticator({ db: ctx.db, user: requireFreshProof(ctx.req, ctx.res) })),
  }),
);

builder.mutationField("confirmAuthenticator", (t) =>
  t.field({
    type: EnrolmentResultRef,
    description: "Confirms the authenticator app being set up with a code it shows.",
    authScopes: SETUP,
    errors: { types: [AppError] },
    args: { code: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(() => {
        requireFreshProof(ctx.req, ctx.res);
        const { code } = parseArgs(confirmAuthenticatorSchema, args);
        return confirmAuthenticator(ctx.identity, ctx.req, ctx.res, code);
      }),
  }),
);

builder.mutationField("addPasskey", (t) =>
  t.field({
    type: EnrolmentResultRef,
    description: "Adds a passkey: the browser's answer to passkeyRegistrationOptions, and a name for it.",
    authScopes: SETUP,
    errors: { types: [AppError] },
    args: { name: t.arg.string({ required: true }), response: t.arg({ type: "JSON", required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(() => {
        // who may, before what they sent
        requireFreshProof(ctx.req, ctx.res);
        return addPasskey(ctx.identity, ctx.req, ctx.res, parseArgs(newPasskeySchema, args));
      }),
  }),
);

builder.mutationField("renamePasskey", (t) =>
  t.field({
    type: PasskeyRef,
    description: "Renames one of your passkeys.",
    authScopes: SETUP,
    errors: { types: [AppError] },
    args: { id: t.arg.int({ required: true }), name: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(async () => {
        const { name } = parseArgs(renamePasskeySchema, { name: args.name });
        return renamePasskey({
          db: ctx.db,
          user: requireEnrollingUser(ctx.res),
          passkeyId: parseId(args.id),
          name,
          ip: clientIp(ctx.req),
        });
      }),
  }),
);

builder.mutationField("regenerateRecoveryCodes", (t) =>
  t.stringList({
    description: "Ten new recovery codes (shown once); the old ones stop working.",
    authScopes: SETUP,
    errors: { types: [AppError] },
    resolve: (_root, _args, ctx) =>
      runIdentity(async () => {
        const user = requireFreshProof(ctx.req, ctx.res);
        return (await regenerateRecoveryCodes({ db: ctx.db, user, ip: clientIp(ctx.req) })).recoveryCodes;
      }),
  }),
);

/** A mutation that answers WebAuthn options as JSON (its challenge kept in the session). */
function optionsMutation(
  name: string,
  description: string,
  authScopes: typeof PUBLIC | typeof SETUP,
  offer: (ctx: GraphQLContext) => Promise<unknown>,
): void {
  builder.mutationField(name, (t) =>
    t.field({
      type: "JSON",
      description,
      authScopes,
      errors: { types: [AppError] },
      resolve: (_root, _args, ctx) => runIdentity(() => offer(ctx)),
    }),
  );
}

optionsMutation(
  "secondFactorPasskeyOptions",
  "The WebAuthn request options for the pending sign-in's passkey (valid five minutes).",
  PUBLIC,
  (ctx) => secondFactorPasskeyOptions(ctx.identity, ctx.req),
);
optionsMutation(
  "passkeySignInOptions",
  "The WebAuthn request options of signing in with a passkey alone.",
  PUBLIC,
  (ctx) => passkeySignInOptions(ctx.identity, ctx.req),
);
optionsMutation(
  "confirmIdentityPasskeyOptions",
  "The WebAuthn request options of proving who you are with one of your passkeys.",
  SETUP,
  (ctx) => confirmIdentityPasskeyOptions(ctx.identity, ctx.req, ctx.res),
);
optionsMutation(
  "passkeyRegistrationOptions",
  "The WebAuthn creation options of a new passkey (valid five minutes).",
  SETUP,
  (ctx) => newPasskeyOptions(ctx.identity, ctx.req, ctx.res),
);

/**
 * A change to the user's own second factors, after a fresh proof of identity, that answers their
 * two-factor page as it is then.
 */
function removalMutation(
  name: string,
  description: string,
  args: { id?: true },
  remove: (props: { db: GraphQLContext["db"]; user: User; ip: string; id: number }) => Promise<void>,
): void {
  builder.mutationField(name, (t) =>
    t.field({
      type: TwoFactorStatusRef,
      description,
      authScopes: SETUP,
      errors: { types: [AppError] },
      args: args.id ? { id: t.arg.int({ required: true }) } : {},
      resolve: (_root, given, ctx) =>
        runIdentity(async () => {
          const user = requireFreshProof(ctx.req, ctx.res);
          const id = "id" in given && typeof given.id === "number" ? parseId(given.id) : 0;
          await remove({ db: ctx.db, user, ip: clientIp(ctx.req), id });
          return statusAfter(ctx);
        }),
    }),
  );
}

removalMutation("removeAuthenticator", "Removes the authenticator app.", {}, removeAuthenticator);
removalMutation("removePasskey", "Removes one of your passkeys.", { id: true }, (props) =>
  removePasskey({ ...props, passkeyId: props.id }),
);
removalMutation(
  "turnOffTwoFactor",
  "Turns two-factor sign-in off: the authenticator app, every passkey and the recovery codes go.",
  {},
  turnOffTwoFactor,
);
