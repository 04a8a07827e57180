import { builder, PUBLIC, type Types } from "@gateway/graphql/builder";
import { runIdentity } from "@gateway/graphql/run";
import { parseArgs, parseInput } from "@gateway/input";
import type { SafeUser, SecurityChallenge } from "@schema/api/user";
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
  }),
});

const SecurityQuestionRef = builder
  .objectRef<{ index: number; text: string }>("SecurityQuestionPrompt")
  .implement({ fields: (t) => ({ index: t.exposeInt("index"), text: t.exposeString("text") }) });

/** What a login leads to: the user (session granted) or, for enhanced security, a question first. */
export const LoginResultRef = builder
  .objectRef<{ user: SafeUser | null; challenge: SecurityChallenge | null }>("LoginResult")
  .implement({
    fields: (t) => ({
      user: t.field({ type: UserRef, nullable: true, resolve: (r) => r.user }),
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
      runIdentity(async () => {
        const result = await signIn(ctx.identity, ctx.req, ctx.res, parseInput(loginSchema, args));
        return "needsSecurityAnswer" in result
          ? { user: null, challenge: result }
          : { user: result, challenge: null };
      }),
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
