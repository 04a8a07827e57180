import type { SafeUser, SecurityChallenge } from "@schema/api/user";
import { loginSchema, registrationSchema, USER_TYPES } from "@schema/validation/user";
import { ACCESS_LEVELS, USER_STATUSES } from "@schema/validation/userDirectory";
import { AppError } from "@services/shared/errors";
import {
  adminChangeAccessLevel,
  adminChangeStatus,
  adminChangeType,
  register,
  signIn,
  signOut,
} from "../../auth/flows";
import { present, requireUser } from "../../auth/identity";
import { parse } from "../../rest/handle";
import { parseId, withoutNulls } from "../args";
import { builder, PUBLIC } from "../builder";
import { runIdentity } from "./identityRun";

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
    description: "The signed-in user.",
    authScopes: { loggedIn: true },
    resolve: (_root, _args, ctx) => present(requireUser(ctx.res)),
  }),
);

const RegisterInput = builder.inputType("RegisterInput", {
  fields: (t) => ({
    username: t.string({ required: true }),
    email: t.string({ required: true }),
    password: t.string({ required: true }),
    firstName: t.string({ required: true }),
    lastName: t.string({ required: true }),
    phone: t.string(),
    companyName: t.string(),
    notes: t.string(),
    userType: t.string(),
  }),
});

builder.mutationField("register", (t) =>
  t.field({
    type: UserRef,
    description: "Creates an account and signs it in (spec §4).",
    authScopes: PUBLIC,
    errors: { types: [AppError] },
    args: { input: t.arg({ type: RegisterInput, required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(() =>
        register(ctx.identity, ctx.req, ctx.res, parse(registrationSchema, withoutNulls(args.input))),
      ),
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
        const result = await signIn(ctx.identity, ctx.req, ctx.res, parse(loginSchema, args));
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

export const UserStatusEnum = builder.enumType("UserStatus", { values: USER_STATUSES });

builder.mutationField("changeUserStatus", (t) =>
  t.field({
    type: UserRef,
    description: "An administrator sets a user's status; the user's sessions end.",
    authScopes: { manageUsers: true },
    errors: { types: [AppError] },
    args: { userId: t.arg.int({ required: true }), status: t.arg({ type: UserStatusEnum, required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(() =>
        adminChangeStatus(ctx.identity, ctx.req, ctx.res, {
          userId: parseId(args.userId),
          status: args.status,
        }),
      ),
  }),
);

builder.mutationField("changeUserType", (t) =>
  t.field({
    type: UserRef,
    description:
      "An administrator sets a user's type (only a mainAdmin touches mainAdmins); the user's sessions end.",
    authScopes: { manageUsers: true },
    errors: { types: [AppError] },
    args: { userId: t.arg.int({ required: true }), userType: t.arg({ type: UserTypeEnum, required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(() =>
        adminChangeType(ctx.identity, ctx.req, ctx.res, {
          userId: parseId(args.userId),
          userType: args.userType,
        }),
      ),
  }),
);

export const AccessLevelEnum = builder.enumType("AccessLevel", {
  description: "What the user may do in the Pro app (it changes nothing inside the portal).",
  values: ACCESS_LEVELS,
});

builder.mutationField("changeUserAccessLevel", (t) =>
  t.field({
    type: UserRef,
    description: "A user administrator sets a user's Pro-app access level; the Pro app receives it.",
    authScopes: { manageUsers: true },
    errors: { types: [AppError] },
    args: {
      userId: t.arg.int({ required: true }),
      accessLevel: t.arg({ type: AccessLevelEnum, required: true }),
    },
    resolve: (_root, args, ctx) =>
      runIdentity(() =>
        adminChangeAccessLevel(ctx.identity, ctx.req, ctx.res, {
          userId: parseId(args.userId),
          accessLevel: args.accessLevel,
        }),
      ),
  }),
);
