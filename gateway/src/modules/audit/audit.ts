import { builder } from "@gateway/graphql/builder";
import type { GraphQLContext } from "@gateway/graphql/context";
import { keysetPage } from "@gateway/graphql/keysetPage";
import { runIdentity } from "@gateway/graphql/run";
import { withoutNulls } from "@gateway/input";
import {
  type AuditEntryView,
  type AuditPage,
  listAuditEntries,
  type UserNames,
} from "@services/shared/auditLog";
import type { Db } from "@services/shared/db";
import { findUserNames } from "@services/user";

// The audit log (issue 11): any admin (mainAdmin or userAdmin) reads it, as the dashboard that shows
// it is any admin's; entries of areas an admin has no permission for (configuration: manage:config,
// email: manageEmails) are left out for that admin (services/shared/auditLog AUDIT_AREAS).

export const AuditEntryRef = builder.objectRef<AuditEntryView>("AuditEntry").implement({
  description: "One admin or security action: who did what to whom, when, from where, and what changed.",
  fields: (t) => ({
    id: t.exposeInt("id"),
    createdAt: t.field({ type: "DateTime", resolve: (e) => e.createdAt }),
    action: t.exposeString("action", { description: "dotted name, e.g. user.type_changed" }),
    actorId: t.exposeInt("actorId", { nullable: true, description: "null: anonymous or the system" }),
    actorName: t.exposeString("actorName", { nullable: true }),
    targetType: t.exposeString("targetType", { nullable: true }),
    targetId: t.exposeString("targetId", { nullable: true }),
    targetName: t.exposeString("targetName", {
      nullable: true,
      description: "the target user's name, when the target is a user",
    }),
    ip: t.exposeString("ip", { nullable: true, description: "the client's address" }),
    requestId: t.exposeString("requestId", { nullable: true, description: "the request's x-request-id" }),
    before: t.field({ type: "JSON", nullable: true, resolve: (e) => e.before ?? null }),
    after: t.field({ type: "JSON", nullable: true, resolve: (e) => e.after ?? null }),
    metadata: t.field({ type: "JSON", nullable: true, resolve: (e) => e.metadata ?? null }),
  }),
});

const AuditPageRef = keysetPage<AuditEntryView, AuditPage>("AuditPage", {
  node: AuditEntryRef,
  description: "One page of the audit log, newest first (keyset pages: pass endCursor as `after`).",
});

const AuditFilterInput = builder.inputType("AuditFilter", {
  description: "Which audit entries (every field optional, combined with AND).",
  fields: (t) => ({
    action: t.string({ description: "one action, exactly" }),
    actionPrefix: t.string({ description: "actions starting with this, e.g. user. or appointment." }),
    actorId: t.int({ description: "the acting user" }),
    targetUserId: t.int({ description: "the user acted upon" }),
    from: t.field({ type: "DateTime", description: "at or after" }),
    to: t.field({ type: "DateTime", description: "before" }),
    q: t.string({ description: "part of an action, any case" }),
  }),
});

/** The audit view's names of actors and targets: the user service's, which owns the users table. */
export function auditUserNames(db: Db): UserNames {
  return (ids) => findUserNames(db, ids);
}

/** The reader's permissions, for the areas of the log they may read. */
export function readerPermissions(ctx: GraphQLContext): readonly string[] {
  return ctx.currentUser?.permissions ?? [];
}

builder.queryField("auditLog", (t) =>
  t.field({
    type: AuditPageRef,
    description:
      "The audit log, newest first, filtered, in keyset pages of `first` (1 to 200, default 50) (any admin; configuration and email entries need manage:config and manageEmails).",
    authScopes: { admin: true },
    args: {
      filter: t.arg({ type: AuditFilterInput }),
      first: t.arg.int(),
      after: t.arg.string({ description: "endCursor of the previous page" }),
    },
    resolve: (_root, args, ctx) =>
      runIdentity(() =>
        listAuditEntries({
          db: ctx.db,
          userNames: auditUserNames(ctx.db),
          filter: withoutNulls(args.filter),
          first: args.first ?? undefined,
          after: args.after ?? undefined,
          readerPermissions: readerPermissions(ctx),
        }),
      ),
  }),
);
