import { builder, PUBLIC } from "@gateway/graphql/builder";
import { caller } from "@gateway/graphql/context";
import { runIdentity } from "@gateway/graphql/run";
import { parseArgs, parseId, parseInput } from "@gateway/input";
import type { SafeUser } from "@schema/api/user";
import {
  changePasswordSchema,
  emailSchema,
  notesSchema,
  resetConfirmSchema,
  resetRequestSchema,
  securityAnswersSchema,
  securityQuestionsSchema,
  uniqueIdSchema,
  verifyEmailSchema,
} from "@schema/validation/user";
import { AppError } from "@services/shared/errors";
import {
  askPasswordReset,
  askVerificationEmail,
  lookUpUser,
  saveOwnSecurityQuestions,
  type UserCard,
  updateNotes,
} from "@services/user";
import { z } from "zod";
import { notesSaved } from "./present";
import { clientIp, sessionOwner } from "./session";
import { UserRef } from "./user";
import {
  answerSecurityQuestions,
  changeOwnPassword,
  checkSession,
  confirmEmail,
  confirmPasswordReset,
  readSecurityQuestions,
} from "./withSession";

// Account mutations: password reset, email verification, security questions, console notes.

const MessageRef = builder.objectRef<{ message: string }>("MessageResult").implement({
  fields: (t) => ({ message: t.exposeString("message") }),
});

const NotesResultRef = builder
  .objectRef<{ notes: string; wordCount: number; message: string }>("NotesResult")
  .implement({
    fields: (t) => ({
      notes: t.exposeString("notes"),
      wordCount: t.exposeInt("wordCount"),
      message: t.exposeString("message"),
    }),
  });

builder.mutationField("requestPasswordReset", (t) =>
  t.field({
    type: MessageRef,
    authScopes: PUBLIC,
    errors: { types: [AppError] },
    args: { email: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(() =>
        askPasswordReset({
          db: ctx.db,
          limiter: ctx.identity.limiter,
          email: parseInput(resetRequestSchema, args).email,
          ip: clientIp(ctx.req),
        }),
      ),
  }),
);

builder.mutationField("resetPassword", (t) =>
  t.field({
    type: MessageRef,
    authScopes: PUBLIC,
    errors: { types: [AppError] },
    args: { token: t.arg.string({ required: true }), password: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(() => confirmPasswordReset(ctx.identity, ctx.req, parseInput(resetConfirmSchema, args))),
  }),
);

builder.mutationField("verifyEmail", (t) =>
  t.field({
    type: MessageRef,
    authScopes: PUBLIC,
    errors: { types: [AppError] },
    args: { token: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(() =>
        confirmEmail(ctx.identity, ctx.req, ctx.res, parseInput(verifyEmailSchema, args).token),
      ),
  }),
);

const SecurityQuestionInput = builder.inputType("SecurityQuestionInput", {
  fields: (t) => ({ question: t.string({ required: true }), answer: t.string({ required: true }) }),
});

builder.mutationField("setSecurityQuestions", (t) =>
  t.field({
    type: MessageRef,
    authScopes: { loggedIn: true },
    errors: { types: [AppError] },
    args: {
      userId: t.arg.int({ required: true }),
      questions: t.arg({ type: [SecurityQuestionInput], required: true }),
    },
    resolve: (_root, args, ctx) =>
      runIdentity(() => {
        const input = parseInput(securityQuestionsSchema, args);
        return saveOwnSecurityQuestions({ db: ctx.db, actor: caller(ctx), ...input, ip: clientIp(ctx.req) });
      }),
  }),
);

const SecurityAnswerInput = builder.inputType("SecurityAnswerInput", {
  fields: (t) => ({ questionIndex: t.int({ required: true }), answer: t.string({ required: true }) }),
});

/** The outcome of security answers: verified, with the user when an enhanced login was completed. */
const SecurityAnswersResultRef = builder
  .objectRef<{ verified: boolean; user: SafeUser | null }>("SecurityAnswersResult")
  .implement({
    fields: (t) => ({
      verified: t.exposeBoolean("verified"),
      user: t.field({ type: UserRef, nullable: true, resolve: (r) => r.user }),
    }),
  });

builder.mutationField("verifySecurityAnswers", (t) =>
  t.field({
    type: SecurityAnswersResultRef,
    description: "Answers security questions: completes an enhanced login, or confirms a signed-in user.",
    authScopes: PUBLIC,
    errors: { types: [AppError] },
    args: {
      userId: t.arg.int({ required: true }),
      answers: t.arg({ type: [SecurityAnswerInput], required: true }),
    },
    resolve: (_root, args, ctx) =>
      runIdentity(async () => {
        const result = await answerSecurityQuestions(
          ctx.identity,
          ctx.req,
          ctx.res,
          parseInput(securityAnswersSchema, args),
        );
        return "verified" in result ? { verified: true, user: null } : { verified: true, user: result };
      }),
  }),
);

builder.mutationField("updateNotes", (t) =>
  t.field({
    type: NotesResultRef,
    description: "Saves the console note (up to 250 words) and tells the team.",
    authScopes: { loggedIn: true },
    errors: { types: [AppError] },
    args: { notes: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(async () => {
        const { notes } = parseInput(notesSchema, args);
        return notesSaved(await updateNotes({ db: ctx.db, userId: caller(ctx).id, notes }));
      }),
  }),
);

builder.mutationField("changePassword", (t) =>
  t.field({
    type: MessageRef,
    description: "The signed-in user changes their password; this session gets a new id and the others end.",
    authScopes: { loggedIn: true },
    errors: { types: [AppError] },
    args: {
      currentPassword: t.arg.string({ required: true }),
      newPassword: t.arg.string({ required: true }),
    },
    resolve: (_root, args, ctx) =>
      runIdentity(() =>
        changeOwnPassword(ctx.identity, ctx.req, ctx.res, parseInput(changePasswordSchema, args)),
      ),
  }),
);

const SecurityQuestionListRef = builder
  .objectRef<{ userId: number; questions: string[] }>("SecurityQuestionList")
  .implement({
    description: "A user's three security questions (never the answers).",
    fields: (t) => ({ userId: t.exposeInt("userId"), questions: t.exposeStringList("questions") }),
  });

builder.queryField("securityQuestions", (t) =>
  t.field({
    type: SecurityQuestionListRef,
    description:
      "A user's security questions: one's own, the user of this session's pending enhanced sign-in, or manage:users (a mainAdmin's only for a mainAdmin).",
    authScopes: PUBLIC,
    errors: { types: [AppError] },
    args: { userId: t.arg.int({ required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(async () => readSecurityQuestions(ctx.identity, ctx.req, ctx.res, parseId(args.userId))),
  }),
);

const UserCardRef = builder.objectRef<UserCard>("UserCard").implement({
  description: "What the console shows of a user found by unique id.",
  fields: (t) => ({
    id: t.exposeInt("id"),
    uniqueId: t.exposeString("uniqueId"),
    firstName: t.exposeString("firstName"),
    lastName: t.exposeString("lastName"),
    companyName: t.exposeString("companyName", { nullable: true }),
    esrtSynced: t.exposeBoolean("esrtSynced"),
  }),
});

const uniqueIdArgs = z.object({ uniqueId: uniqueIdSchema });

builder.queryField("userByUniqueId", (t) =>
  t.field({
    type: UserCardRef,
    description: "One's own card, or anyone's with manage:users.",
    authScopes: { loggedIn: true },
    errors: { types: [AppError] },
    args: { uniqueId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(() =>
        lookUpUser({ db: ctx.db, actor: caller(ctx), uniqueId: parseInput(uniqueIdArgs, args).uniqueId }),
      ),
  }),
);

const SessionStatusRef = builder.objectRef<{ active: true; expiresAt: string }>("SessionStatus").implement({
  fields: (t) => ({
    active: t.exposeBoolean("active"),
    expiresAt: t.field({ type: "DateTime", resolve: (s) => new Date(s.expiresAt) }),
  }),
});

builder.queryField("sessionCheck", (t) =>
  t.field({
    type: SessionStatusRef,
    description: "Whether this session is signed in and when it expires; a check does not extend it.",
    authScopes: PUBLIC,
    errors: { types: [AppError] },
    resolve: (_root, _args, ctx) => runIdentity(() => checkSession(ctx.req, ctx.res)),
  }),
);

const resendArgs = z.object({ email: emailSchema.optional() });

builder.mutationField("resendVerification", (t) =>
  t.field({
    type: MessageRef,
    description:
      "Sends a new verification link to the email given, or the signed-in user's (the same answer either way).",
    authScopes: PUBLIC,
    errors: { types: [AppError] },
    args: { email: t.arg.string() },
    resolve: (_root, args, ctx) =>
      runIdentity(() =>
        askVerificationEmail({
          db: ctx.db,
          limiter: ctx.identity.limiter,
          // a session limited to verification asks for its own address
          email: parseArgs(resendArgs, args).email ?? sessionOwner(ctx.res)?.email,
          ip: clientIp(ctx.req),
        }),
      ),
  }),
);
