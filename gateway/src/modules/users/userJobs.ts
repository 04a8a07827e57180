import { builder, PUBLIC } from "@gateway/graphql/builder";
import { caller } from "@gateway/graphql/context";
import { keysetPage } from "@gateway/graphql/keysetPage";
import { runIdentity } from "@gateway/graphql/run";
import { parseId, parseInput } from "@gateway/input";
import {
  acceptInvitationSchema,
  BULK_MAX_IDS,
  bulkActionSchema,
  newUserSchema,
} from "@schema/validation/userAdmin";
import { AppError, isAppError } from "@services/shared/errors";
import {
  acceptInvitation,
  createInvitedUser,
  getUserJob,
  listUserJobItems,
  listUserJobs,
  startUserBulkJob,
  type UserJobItemPage,
  type UserJobItemView,
  type UserJobView,
} from "@services/user";
import { z } from "zod";
import { clientIp } from "../identity/session";
import { profileInputFields, UserTypeEnum } from "../identity/user";
import { parseUserFilter, UserFilterInput } from "./userDirectory";

// Creating users with an invitation, bulk changes and the jobs of client imports (issue 11; manage:users on
// every field but acceptInvitation, which the invited person calls with the emailed token). The
// import file itself is posted to POST /api/admin/users/import (modules/users/userImport.rest.ts), as
// it can be larger than a GraphQL request body may be.

const SCOPE = { manageUsers: true } as const;

/** A form's failures by field, so the web dialog shows each under its input. */
export class InvalidFields extends Error {
  readonly fields: { field: string; message: string }[];
  constructor(message: string, fields: { field: string; message: string }[]) {
    super(message);
    this.name = "InvalidFields";
    this.fields = fields;
  }
}

const FieldErrorRef = builder.objectRef<{ field: string; message: string }>("FieldError").implement({
  fields: (t) => ({ field: t.exposeString("field"), message: t.exposeString("message") }),
});

builder.objectType(InvalidFields, {
  name: "InvalidFields",
  description: "The input was refused; each field's messages (the registration's words).",
  fields: (t) => ({
    message: t.exposeString("message"),
    fields: t.field({ type: [FieldErrorRef], resolve: (e) => e.fields }),
  }),
});

/** Turns failures that name fields (validation, a taken username or email) into InvalidFields. */
async function withFieldErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await runIdentity(work);
  } catch (err) {
    // runIdentity made a taken username or email (UserError) a CONFLICT, its field errors kept
    const details =
      isAppError(err) && (err.code === "VALIDATION_FAILED" || err.code === "CONFLICT")
        ? err.details
        : undefined;
    const errors = details?.errors;
    if (err instanceof Error && errors && typeof errors === "object") {
      const fields = Object.entries(errors as Record<string, string[]>).flatMap(([field, messages]) =>
        messages.map((message) => ({ field, message })),
      );
      throw new InvalidFields(err.message, fields);
    }
    throw err;
  }
}

const UserJobStatusEnum = builder.enumType("UserJobStatus", {
  values: ["queued", "running", "done", "failed"] as const,
});
const UserJobItemOutcomeEnum = builder.enumType("UserJobItemOutcome", {
  values: ["pending", "changed", "skipped", "failed"] as const,
});
const UserBulkActionEnum = builder.enumType("UserBulkAction", {
  values: ["setStatus", "setType", "setAccessLevel", "resendVerification"] as const,
});

const UserJobItemRef = builder.objectRef<UserJobItemView>("UserJobItem").implement({
  description: "One user of a job (or one row of an import) and what happened to it.",
  fields: (t) => ({
    position: t.exposeInt("position", {
      description: "order in the job; an import's row number in the file",
    }),
    userId: t.exposeInt("userId", { nullable: true }),
    username: t.exposeString("username", { nullable: true }),
    email: t.exposeString("email", { nullable: true }),
    name: t.exposeString("name", { nullable: true }),
    outcome: t.field({ type: UserJobItemOutcomeEnum, resolve: (i) => i.outcome }),
    message: t.exposeString("message", {
      nullable: true,
      description: "why it was skipped or failed, in words",
    }),
  }),
});

const UserJobItemConnectionRef = keysetPage<UserJobItemView, UserJobItemPage>("UserJobItemConnection", {
  node: UserJobItemRef,
  description: "One page of a job's results in item order (keyset pages: pass endCursor as `after`).",
  totalCount: true,
});

const UserJobRef = builder.objectRef<UserJobView>("UserJob").implement({
  description: "A bulk change or a client import, with its progress.",
  fields: (t) => ({
    id: t.exposeInt("id"),
    kind: t.exposeString("kind", { description: "bulk or import" }),
    action: t.exposeString("action", {
      description: "setStatus, setType, setAccessLevel, resendVerification, or invite (import)",
    }),
    value: t.exposeString("value", { nullable: true }),
    status: t.field({ type: UserJobStatusEnum, resolve: (j) => j.status }),
    total: t.exposeInt("total"),
    done: t.exposeInt("done", { description: "users changed (or created and invited)" }),
    skipped: t.exposeInt("skipped"),
    failed: t.exposeInt("failed"),
    processed: t.int({ resolve: (j) => j.done + j.skipped + j.failed }),
    percent: t.int({
      description: "0 to 100",
      resolve: (j) => (j.total === 0 ? 100 : Math.floor(((j.done + j.skipped + j.failed) * 100) / j.total)),
    }),
    selection: t.exposeString("selection", { description: "ids, filter or csv" }),
    error: t.exposeString("error", { nullable: true }),
    actorId: t.exposeInt("actorId"),
    createdAt: t.field({ type: "DateTime", resolve: (j) => j.createdAt }),
    startedAt: t.field({ type: "DateTime", nullable: true, resolve: (j) => j.startedAt }),
    finishedAt: t.field({ type: "DateTime", nullable: true, resolve: (j) => j.finishedAt }),
    results: t.field({
      type: UserJobItemConnectionRef,
      args: {
        after: t.arg.string({ description: "endCursor of the previous page" }),
        first: t.arg.int({ description: "page size, 1 to 200 (default 50)" }),
        outcomes: t.arg({ type: [UserJobItemOutcomeEnum] }),
      },
      resolve: (j, args, ctx) =>
        runIdentity(() =>
          listUserJobItems(ctx.db, {
            jobId: j.id,
            after: args.after ?? undefined,
            first: args.first ?? undefined,
            outcomes: args.outcomes ?? undefined,
          }),
        ),
    }),
  }),
});

const CreatedUserRef = builder
  .objectRef<{ id: number; username: string; email: string; userType: string }>("CreatedUser")
  .implement({
    description: "A user created by an administrator; the invitation email is on its way.",
    fields: (t) => ({
      id: t.exposeInt("id"),
      username: t.exposeString("username"),
      email: t.exposeString("email"),
      userType: t.field({
        type: UserTypeEnum,
        resolve: (u) => u.userType as z.infer<typeof newUserSchema>["userType"],
      }),
    }),
  });

const InvitationAcceptedRef = builder
  .objectRef<{ message: string; username: string }>("InvitationAccepted")
  .implement({
    fields: (t) => ({ message: t.exposeString("message"), username: t.exposeString("username") }),
  });

const NewUserInput = builder.inputType("NewUserInput", {
  fields: (t) => ({
    ...profileInputFields(t),
    userType: t.field({ type: UserTypeEnum, required: true }),
  }),
});

const idsSchema = z
  .array(z.number().int().min(1, "Each id must be a user's id").max(2_147_483_647))
  .max(BULK_MAX_IDS, `At most ${BULK_MAX_IDS.toLocaleString("en-US")} users can be selected by row`);

builder.mutationField("createUser", (t) =>
  t.field({
    type: CreatedUserRef,
    description:
      "Creates a user of a type the administrator may grant, without a password, and emails an invitation with a set-password link (single use, 72 hours) (manage:users).",
    authScopes: SCOPE,
    errors: { types: [InvalidFields, AppError] },
    args: { input: t.arg({ type: NewUserInput, required: true }) },
    resolve: (_root, args, ctx) =>
      withFieldErrors(async () => {
        const input = parseInput(newUserSchema, args.input);
        const user = await createInvitedUser({
          db: ctx.db,
          actor: caller(ctx),
          ip: clientIp(ctx.req),
          input,
        });
        return { id: user.id, username: user.username, email: user.email, userType: user.userType };
      }),
  }),
);

builder.mutationField("acceptInvitation", (t) =>
  t.field({
    type: InvitationAcceptedRef,
    description:
      "Sets the first password of an invited user with the emailed token (single use, 72 hours) and confirms the address (public).",
    authScopes: PUBLIC,
    errors: { types: [InvalidFields, AppError] },
    args: { token: t.arg.string({ required: true }), password: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) =>
      withFieldErrors(async () => {
        const input = parseInput(acceptInvitationSchema, args);
        const user = await acceptInvitation({ db: ctx.db, ...input, ip: clientIp(ctx.req) });
        return { message: "Your password is set. You can now log in.", username: user.username };
      }),
  }),
);

builder.mutationField("startUserBulkJob", (t) =>
  t.field({
    type: UserJobRef,
    description:
      "Starts a bulk change of the selected users (status, type within the administrator's rights, access level, or resend verification) as a job; each user's change is its own event and audit row (manage:users).",
    authScopes: SCOPE,
    errors: { types: [AppError] },
    args: {
      ids: t.arg.intList({ description: "the users, at most 10,000 (give ids or filter)" }),
      filter: t.arg({ type: UserFilterInput, description: "every user matching it when the job starts" }),
      action: t.arg({ type: UserBulkActionEnum, required: true }),
      value: t.arg.string({
        description: "the status, type or access level to set (not for resendVerification)",
      }),
    },
    resolve: (_root, args, ctx) =>
      runIdentity(() => {
        const hasIds = args.ids !== null && args.ids !== undefined;
        const hasFilter = args.filter !== null && args.filter !== undefined;
        if (hasIds === hasFilter) {
          throw new AppError("VALIDATION_FAILED", "Give either the ids of the users or a filter");
        }
        const selection = hasIds
          ? { kind: "ids" as const, ids: parseInput(idsSchema, args.ids) }
          : { kind: "filter" as const, filter: parseUserFilter(args.filter) };
        const action = parseInput(bulkActionSchema, { action: args.action, value: args.value ?? undefined });
        const actor = caller(ctx);
        const ip = clientIp(ctx.req);
        return startUserBulkJob({ db: ctx.db, actor, selection, action, ip });
      }),
  }),
);

builder.queryField("userBulkJob", (t) =>
  t.field({
    type: UserJobRef,
    nullable: true,
    description:
      "One bulk change or import with its progress and results; null when not found (manage:users).",
    authScopes: SCOPE,
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, args, ctx) => runIdentity(() => getUserJob(ctx.db, parseId(args.id))),
  }),
);

builder.queryField("userBulkJobs", (t) =>
  t.field({
    type: [UserJobRef],
    description: "The latest bulk changes and imports, newest first (at most 20) (manage:users).",
    authScopes: SCOPE,
    resolve: (_root, _args, ctx) => listUserJobs(ctx.db, 20),
  }),
);
