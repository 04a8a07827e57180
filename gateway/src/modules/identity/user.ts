import { builder, PUBLIC, type Types } from "@gateway/graphql/builder";
import { runIdentity } from "@gateway/graphql/run";
import { parseArgs, parseInput } from "@gateway/input";
import type { SafeUser, SecurityChallenge, TwoFactorChallenge } from "@schema/api/user";
import { loginSchema, registrationSchema, USER_TYPES } from "@schema/validation/user";
import { AppError } from "@services/shared/errors";
import { presentOwner } from "./session";
import { register, signIn, signOut } from "./withSession";

export const UserTypeEnum = builder.enumType("UserType", { values: USER_TYPES });

/** A user as any answer may show it: never a password, hash, token or security answer. */
export const UserRef = builder.objectRef<SafeUser>("User").implement({
  fields: (t) => ({
    id: t.exposeInt("id"),
    uniqueId: t.exposeString("uniqueId"),
    username: t.exposeString("username"),
    email: t.exposeString("email"),
    firstName: t.exposeString("firstName"),
    lastName: t.exposeString("lastName"),
    phone: t.exposeString("phone", { nullable: true }),
    companyName: t.exposeString("companyName", { nullable: true }),
    userType: t.field({ type: UserTypeEnum, resolve: (u) => u.userType }),
    notes: t.exposeString("notes", { nullable: true }),
    createdAt: t.field({ type: "DateTime", resolve: (u) => u.createdAt }),
    lastLoginAt: t.field({ type: "DateTime", nullable: true, resolve: (u) => u.lastLoginAt }),
    accessLevel: t.exposeString("accessLevel"),
    esrtSynced: t.exposeBoolean("esrtSynced"),
    userStatus: t.exposeString("userStatus"),
    emailVerified: t.exposeBoolean("emailVerified"),
    securityQuestionsSet: t.exposeBoolean("securityQuestionsSet"),
    securityLevel: t.exposeString("securityLevel"),
    permissions: t.exposeStringList("permissions"),
    needsVerification: t.boolean({
      description:
        "On the signed-in user's own answers: this session can only verify the email until it is verified.",
      resolve: (u) => u.needsVerification === true,
    }),
    needsTwoFactorEnrolment: t.boolean({
      description:
        "On the signed-in user's own answers: this session can only set up two-factor sign-in, which the security settings require of the user.",
      resolve: (u) => u.needsTwoFactorEnrolment === true,
    }),
  }),
});

const SecurityQuestionRef = builder
  .objectRef<{ index: number; text: string }>("SecurityQuestionPrompt")
  .implement({ fields: (t) => ({ index: t.exposeInt("index"), text: t.exposeString("text") }) });

export const SecondFactorMethodEnum = builder.enumType("SecondFactorMethod", {
  description: "A second factor of two-factor sign-in.",
  values: {
    totp: { description: "A 6-digit code of an authenticator app" },
    passkey: { description: "A passkey (WebAuthn)" },
    recovery_code: { description: "One of the ten single-use recovery codes" },
  } as const,
});

/** What a sign-in step leads to, as LoginResult shows it. */
export interface LoginResultShape {
  user: SafeUser | null;
  challenge: SecurityChallenge | null;
  twoFactor: TwoFactorChallenge | null;
}

/** A sign-in step's answer as LoginResult shows it. */
export function loginResult(result: SafeUser | SecurityChallenge | TwoFactorChallenge): LoginResultShape {
  if ("needsSecurityAnswer" in result) return { user: null, challenge: result, twoFactor: null };
  if ("twoFactorRequired" in result) return { user: null, challenge: null, twoFactor: result };
  return { user: result, challenge: null, twoFactor: null };
}

/**
 * What a login leads to: the user (session granted) or, first, a second factor (two-factor sign-in)
 * or the enhanced level's question.
 */
export const LoginResultRef = builder.objectRef<LoginResultShape>("LoginResult").implement({
  fields: (t) => ({
    user: t.field({ type: UserRef, nullable: true, resolve: (r) => r.user }),
    twoFactorRequired: t.boolean({
      description: "No session yet: give a second factor (loginTwoFactor) within five minutes.",
      resolve: (r) => r.twoFactor !== null,
    }),
    methods: t.field({
      type: [SecondFactorMethodEnum],
      description: "The second factors the user may give, when twoFactorRequired.",
      resolve: (r) => (r.twoFactor?.methods ?? []) as ("totp" | "passkey" | "recovery_code")[],
    }),
    needsSecurityAnswer: t.boolean({ resolve: (r) => r.challenge !== null }),
    userId: t.int({ nullable: true, resolve: (r) => r.challenge?.userId ?? r.user?.id ?? null }),
    question: t.field({
      type: SecurityQuestionRef,
      nullable: true,
      resolve: (r) => r.challenge?.question ?? null,
    }),
  }),
});

builder.queryField("me", (t) =>
  t.field({
    type: UserRef,
    description:
      "The signed-in user; also while the session is limited to verifying the email (needsVerification).",
    authScopes: { session: true },
    resolve: (_root, _args, ctx) => presentOwner(ctx.res),
  }),
);

/** The profile fields every user form shares: registration, an administrator's edit, a new user. */
export function profileInputFields(t: PothosSchemaTypes.InputFieldBuilder<Types, "InputObject">) {
  return {
    username: t.string({ required: true }),
    email: t.string({ required: true }),
    firstName: t.string({ required: true }),
    lastName: t.string({ required: true }),
    phone: t.string(),
    companyName: t.string(),
  };
}

const RegisterInput = builder.inputType("RegisterInput", {
  fields: (t) => ({
    ...profileInputFields(t),
    password: t.string({ required: true }),
    notes: t.string(),
    userType: t.string(),
  }),
});

builder.mutationField("register", (t) =>
  t.field({
    type: UserRef,
    description: "Creates an account and signs it in.",
    authScopes: PUBLIC,
    errors: { types: [AppError] },
    args: { input: t.arg({ type: RegisterInput, required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(() => register(ctx.identity, ctx.req, ctx.res, parseArgs(registrationSchema, args.input))),
  }),
);

builder.mutationField("login", (t) =>
  t.field({
    type: LoginResultRef,
    description: "Signs in with a username or email and a password.",
    authScopes: PUBLIC,
    errors: { types: [AppError] },
    args: { login: t.arg.string({ required: true }), password: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(async () =>
        loginResult(await signIn(ctx.identity, ctx.req, ctx.res, parseInput(loginSchema, args))),
      ),
  }),
);

builder.mutationField("logout", (t) =>
  t.boolean({
    description: "Ends the session.",
    authScopes: PUBLIC,
    resolve: async (_root, _args, ctx) => {
      await signOut(ctx.identity, ctx.req, ctx.res);
      return true;
    },
  }),
);
