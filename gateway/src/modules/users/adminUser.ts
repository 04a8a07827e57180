import { type Actor, permitted } from "@gateway/auth/actor";
import { builder } from "@gateway/graphql/builder";
import type { GraphQLContext } from "@gateway/graphql/context";
import { runIdentity } from "@gateway/graphql/run";
import { parseArgs, parseId, parseInput } from "@gateway/input";
import {
  adminProfileSchema,
  DRAWER_LIST_MAX,
  DRAWER_LIST_STEP,
  drawerListSchema,
} from "@schema/validation/adminUser";
import { text } from "@schema/validation/primitives";
import { ACCESS_LEVELS, USER_STATUSES } from "@schema/validation/userDirectory";
import { adminListAppointments } from "@services/appointment";
import { listDocuments } from "@services/document";
import { AppError } from "@services/shared/errors";
import {
  type AccountActionResult,
  type AdminTwoFactorView,
  adminTwoFactorView,
  assertMaySeeSessions,
  changeAccessLevel,
  changeUserStatus,
  changeUserType,
  clearSecurityQuestions,
  grantableTypes,
  invitationPendingOf,
  listNoteHistory,
  markEmailVerified,
  type NoteHistoryView,
  resendInvitation,
  resetTwoFactor,
  revokeUserSessions,
  sendPasswordReset,
  sendVerificationEmail,
  updateUserProfile,
} from "@services/user";
import { z } from "zod";
import { AppointmentRef } from "../appointments/appointment";
import { DocumentRef } from "../documents/document";
import { clientIp, present, revokeSessions } from "../identity/session";
import { profileInputFields, UserRef, UserTypeEnum } from "../identity/user";
import { listUserSessions, revokeUserSession, type UserSessionView } from "../identity/userSessions";

// One user as an administrator (manage:users) sees and changes them (issue 11): the drawer's
// detail (the User type, with the notes history, appointments, documents and sessions added for
// administrators), the profile edit, the account actions and the session revocations. Every change
// obeys the one rule of services/user/changeUserAccount.ts (findManagedUser).

const SCOPE = { manageUsers: true } as const;

const NoteHistoryEntryRef = builder.objectRef<NoteHistoryView>("NoteHistoryEntry").implement({
  description: "A note the user sent the team from their console.",
  fields: (t) => ({
    id: t.exposeInt("id"),
    notes: t.exposeString("notes"),
    wordCount: t.exposeInt("wordCount"),
    createdAt: t.field({ type: "DateTime", resolve: (n) => n.createdAt }),
  }),
});

const UserSessionRef = builder.objectRef<UserSessionView>("UserSession").implement({
  description: "One open session of a user: where it was granted, when it signed in and was last active.",
  fields: (t) => ({
    id: t.exposeString("id", { description: "Names the session for a revocation (not the session id)." }),
    device: t.exposeString("device"),
    ip: t.exposeString("ip", { nullable: true }),
    signedInAt: t.field({ type: "DateTime", resolve: (s) => s.signedInAt }),
    lastSeenAt: t.field({ type: "DateTime", resolve: (s) => s.lastSeenAt }),
    expiresAt: t.field({ type: "DateTime", resolve: (s) => s.expiresAt }),
  }),
});

/** The administrator who asks. @throws AppError UNAUTHENTICATED, FORBIDDEN. */
function managerOf(ctx: GraphQLContext): Actor {
  return permitted(ctx.currentUser, "manage:users");
}

/** The description of the drawer lists' `first` argument. */
const DRAWER_FIRST = `How many, newest first (1 to ${DRAWER_LIST_MAX}, default ${DRAWER_LIST_STEP}).`;

/** The drawer list's size asked for. @throws AppError VALIDATION_FAILED outside 1 to DRAWER_LIST_MAX. */
function firstOf(args: { first?: number | null }): number {
  return parseArgs(drawerListSchema, { first: args.first }).first;
}

builder.objectFields(UserRef, (t) => ({
  noteHistory: t.field({
    type: [NoteHistoryEntryRef],
    description: "The notes the user sent the team, newest first (manage:users).",
    authScopes: SCOPE,
    args: { first: t.arg.int({ required: false, description: DRAWER_FIRST }) },
    resolve: (u, args, ctx) =>
      runIdentity(async () => {
        managerOf(ctx);
        return listNoteHistory({ db: ctx.db, userId: u.id, limit: firstOf(args) });
      }),
  }),
  appointments: t.field({
    type: [AppointmentRef],
    description: "The user's appointments, latest first (manage:users and manage:appointments).",
    authScopes: { $all: { manageUsers: true, manageAppointments: true } },
    args: { first: t.arg.int({ required: false, description: DRAWER_FIRST }) },
    resolve: (u, args, ctx) =>
      runIdentity(async () => {
        managerOf(ctx);
        const first = firstOf(args);
        const rows = await adminListAppointments({
          db: ctx.db,
          filters: { userId: u.id, sort: "-dateTime" },
        });
        return rows.slice(0, first);
      }),
  }),
  documents: t.field({
    type: [DocumentRef],
    description: "The user's documents, newest first (manage:users and read:all_documents).",
    authScopes: { $all: { manageUsers: true, readAllDocuments: true } },
    args: { first: t.arg.int({ required: false, description: DRAWER_FIRST }) },
    resolve: (u, args, ctx) =>
      runIdentity(async () => {
        const first = firstOf(args);
        const actor = managerOf(ctx);
        // the document list's pages hold at most 100: read as many as asked for
        const found: Awaited<ReturnType<typeof listDocuments>>["nodes"] = [];
        let after: string | undefined;
        while (found.length < first) {
          const page = await listDocuments({
            db: ctx.db,
            actor,
            scope: "all",
            filter: { userId: u.id, first: Math.min(100, first - found.length), after },
          });
          found.push(...page.nodes);
          if (!page.hasNextPage || !page.endCursor) break;
          after = page.endCursor;
        }
        return found;
      }),
  }),
  invitationPending: t.boolean({
    description: "Whether the user was invited and has not set a password yet (manage:users).",
    authScopes: SCOPE,
    resolve: (u, _args, ctx) =>
      runIdentity(async () => {
        managerOf(ctx);
        return invitationPendingOf(ctx.db, u.id);
      }),
  }),
  sessions: t.field({
    type: [UserSessionRef],
    description:
      "The user's open sessions, most recently active first (manage:users; an administrator's only for a mainAdmin).",
    authScopes: SCOPE,
    resolve: (u, _args, ctx) =>
      runIdentity(async () => {
        assertMaySeeSessions(managerOf(ctx).userType, u.userType);
        return listUserSessions({ store: ctx.identity.store, sessions: ctx.identity.sessions, userId: u.id });
      }),
  }),
}));

builder.queryField("adminUser", (t) =>
  t.field({
    type: UserRef,
    nullable: true,
    description: "One user as an administrator sees them (manage:users); null when there is none.",
    authScopes: SCOPE,
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(async () => {
        managerOf(ctx);
        const user = await ctx.db.prisma.user.findUnique({ where: { id: parseId(args.id) } });
        return user ? present(user) : null;
      }),
  }),
);

const AdminTwoFactorRef = builder.objectRef<AdminTwoFactorView>("AdminUserTwoFactor").implement({
  description: "A user's two-factor sign-in as the admin console shows it.",
  fields: (t) => ({
    enabled: t.exposeBoolean("enabled"),
    authenticator: t.exposeBoolean("authenticator", { description: "An authenticator app is set up." }),
    passkeys: t.exposeInt("passkeys", { description: "How many passkeys." }),
    recoveryCodesLeft: t.exposeInt("recoveryCodesLeft"),
  }),
});

builder.queryField("adminUserTwoFactor", (t) =>
  t.field({
    type: AdminTwoFactorRef,
    description: "What second factors a user holds (manage:users).",
    authScopes: SCOPE,
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(() => {
        managerOf(ctx);
        return adminTwoFactorView({ db: ctx.db, userId: parseId(args.id) });
      }),
  }),
);

builder.queryField("grantableUserTypes", (t) =>
  t.field({
    type: [UserTypeEnum],
    description: "The user types the signed-in administrator may give or take away (manage:users).",
    authScopes: SCOPE,
    resolve: (_root, _args, ctx) => [...grantableTypes(managerOf(ctx).userType)],
  }),
);

const AdminUserProfileInput = builder.inputType("AdminUserProfileInput", {
  description: "A user's profile as an administrator edits it (the registration form's rules).",
  fields: (t) => profileInputFields(t),
});

builder.mutationField("adminUpdateUserProfile", (t) =>
  t.field({
    type: UserRef,
    description:
      "An administrator edits a user's profile under the registration rules; a new email address must be verified again.",
    authScopes: SCOPE,
    errors: { types: [AppError] },
    args: {
      userId: t.arg.int({ required: true }),
      input: t.arg({ type: AdminUserProfileInput, required: true }),
    },
    resolve: (_root, args, ctx) =>
      runIdentity(async () => {
        const actor = managerOf(ctx);
        const user = await updateUserProfile({
          db: ctx.db,
          actor,
          userId: parseId(args.userId),
          profile: parseArgs(adminProfileSchema, args.input),
          ip: clientIp(ctx.req),
        });
        return present(user);
      }),
  }),
);

const AccountActionResultRef = builder.objectRef<AccountActionResult>("AccountActionResult").implement({
  description: "What an account action did: the account after it and what to tell the administrator.",
  fields: (t) => ({
    message: t.exposeString("message"),
    user: t.field({ type: UserRef, resolve: (r) => present(r.user) }),
  }),
});

const ACTIONS = {
  adminResendVerification: {
    run: sendVerificationEmail,
    description: "Sends the user a new email-verification link (manage:users).",
  },
  adminMarkEmailVerified: {
    run: markEmailVerified,
    description: "Marks the user's email address verified (manage:users).",
  },
  adminSendPasswordReset: {
    run: sendPasswordReset,
    description: "Sends the user the password-reset email (manage:users).",
  },
  adminResendInvitation: {
    run: resendInvitation,
    description:
      "Sends an invited user who has not set a password a new invitation; the earlier link stops working (manage:users).",
  },
  adminResetTwoFactor: {
    run: resetTwoFactor,
    description:
      "Resets another user's two-factor sign-in (a lost phone): every second factor and recovery code goes and the user is told by email (mainAdmin only).",
  },
  adminClearSecurityQuestions: {
    run: clearSecurityQuestions,
    description:
      "Clears the user's security questions; an enhanced security level returns to standard (manage:users).",
  },
} as const;

for (const [name, action] of Object.entries(ACTIONS)) {
  builder.mutationField(name, (t) =>
    t.field({
      type: AccountActionResultRef,
      description: action.description,
      authScopes: SCOPE,
      errors: { types: [AppError] },
      args: { userId: t.arg.int({ required: true }) },
      resolve: (_root, args, ctx) =>
        runIdentity(() =>
          action.run({
            db: ctx.db,
            actor: managerOf(ctx),
            userId: parseId(args.userId),
            ip: clientIp(ctx.req),
          }),
        ),
    }),
  );
}

const RevokeResultRef = builder.objectRef<{ ended: number }>("SessionRevokeResult").implement({
  fields: (t) => ({ ended: t.exposeInt("ended", { description: "How many sessions ended." }) }),
});

const sessionHandleSchema = text()
  .trim()
  .regex(/^[0-9a-f]{32}$/, "Unknown session");

builder.mutationField("adminRevokeUserSession", (t) =>
  t.field({
    type: RevokeResultRef,
    description: "Ends one of a user's sessions at once (manage:users).",
    authScopes: SCOPE,
    errors: { types: [AppError] },
    args: { userId: t.arg.int({ required: true }), sessionId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(async () => {
        const { sessionId } = parseInput(z.object({ sessionId: sessionHandleSchema }), {
          sessionId: args.sessionId,
        });
        const userId = parseId(args.userId);
        const ended = await revokeUserSessions({
          db: ctx.db,
          actor: managerOf(ctx),
          userId,
          which: "one",
          ip: clientIp(ctx.req),
          revoke: () =>
            revokeUserSession({
              store: ctx.identity.store,
              sessions: ctx.identity.sessions,
              userId,
              handle: sessionId,
            }),
        });
        return { ended };
      }),
  }),
);

builder.mutationField("adminRevokeUserSessions", (t) =>
  t.field({
    type: RevokeResultRef,
    description: "Ends every session of a user at once (manage:users).",
    authScopes: SCOPE,
    errors: { types: [AppError] },
    args: { userId: t.arg.int({ required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(async () => {
        const userId = parseId(args.userId);
        const ended = await revokeUserSessions({
          db: ctx.db,
          actor: managerOf(ctx),
          userId,
          which: "all",
          ip: clientIp(ctx.req),
          revoke: () =>
            ctx.identity.sessions.revokeOthers({ store: ctx.identity.store, userId }).catch(() => 0),
        });
        return { ended };
      }),
  }),
);

// A user's status, type and Pro-app access level (manage:users).

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
        changeUserStatus({
          db: ctx.db,
          userId: parseId(args.userId),
          actor: managerOf(ctx),
          status: args.status,
          ip: clientIp(ctx.req),
        }).then(async (user) => {
          // a status change ends the user's sessions
          await revokeSessions(ctx.identity, user.id);
          return present(user);
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
        changeUserType({
          db: ctx.db,
          userId: parseId(args.userId),
          actor: managerOf(ctx),
          userType: args.userType,
          ip: clientIp(ctx.req),
        }).then(present),
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
        changeAccessLevel({
          db: ctx.db,
          userId: parseId(args.userId),
          actor: managerOf(ctx),
          accessLevel: args.accessLevel,
          ip: clientIp(ctx.req),
        }).then(present),
      ),
  }),
);
