import { permissionsOf } from "@gateway/auth/permissions";
import { builder } from "@gateway/graphql/builder";
import { type KeysetPage, keysetPage } from "@gateway/graphql/keysetPage";
import { runIdentity } from "@gateway/graphql/run";
import { parseArgs, withoutNulls } from "@gateway/input";
import type { SafeUser } from "@schema/api/user";
import {
  SORT_DIRECTIONS,
  USER_SORTS,
  type UserFilter,
  userFilterSchema,
} from "@schema/validation/userDirectory";
import { AppError } from "@services/shared/errors";
import {
  type DirectoryFacets,
  type DirectoryUser,
  searchUsers,
  userDirectoryFacets,
  type YesNoCount,
} from "@services/user";
import { UserRef, UserTypeEnum } from "../identity/user";
import { AccessLevelEnum, UserStatusEnum } from "./adminUser";

// The user directory's shared GraphQL inputs (issue 11): the filter and the order that the search,
// the facet counts, the export and the bulk changes all take.

export const UserSortFieldEnum = builder.enumType("UserSortField", { values: USER_SORTS });
export const SortDirectionEnum = builder.enumType("SortDirection", { values: SORT_DIRECTIONS });

/** Which users (schema/validation/userDirectory.ts): fields combined with AND, list values with OR. */
export const UserFilterInput = builder.inputType("UserFilter", {
  fields: (t) => ({
    q: t.string({ description: "parts of username, email, names, company, phone or uniqueId" }),
    userTypes: t.field({ type: [UserTypeEnum] }),
    userStatuses: t.field({ type: [UserStatusEnum] }),
    accessLevels: t.field({ type: [AccessLevelEnum] }),
    emailVerified: t.boolean(),
    esrtSynced: t.boolean(),
    createdFrom: t.field({ type: "DateTime" }),
    createdTo: t.field({ type: "DateTime" }),
    lastLoginFrom: t.field({ type: "DateTime" }),
    lastLoginTo: t.field({ type: "DateTime" }),
  }),
});

export const UserSortInput = builder.inputType("UserSort", {
  fields: (t) => ({
    by: t.field({ type: UserSortFieldEnum, required: true }),
    direction: t.field({ type: SortDirectionEnum, required: true }),
  }),
});

/**
 * The filter argument checked by the shared schema.
 * @throws AppError VALIDATION_FAILED with the schema's messages.
 */
export function parseUserFilter(input: Record<string, unknown> | null | undefined): UserFilter {
  return parseArgs(userFilterSchema, input);
}

// The directory's queries (manage:users): a keyset page of users and the facet counts.

const SCOPE = { manageUsers: true } as const;

/** A directory row as the User type shows it (the public fields and the permissions of its type). */
function nodeOf(u: DirectoryUser): SafeUser {
  return {
    ...u,
    createdAt: u.createdAt.toISOString(),
    lastLoginAt: u.lastLoginAt ? u.lastLoginAt.toISOString() : null,
    permissions: [...permissionsOf(u.userType)],
  };
}

const UserDirectoryPageRef = keysetPage<SafeUser, KeysetPage<SafeUser>>("UserDirectoryPage", {
  node: UserRef,
  description: "One page of the user directory: pass endCursor as `after` for the next.",
});

const FacetCountRef = builder.objectRef<{ value: string; count: number }>("UserFacetCount").implement({
  fields: (t) => ({ value: t.exposeString("value"), count: t.exposeInt("count") }),
});

const YesNoCountRef = builder.objectRef<YesNoCount>("UserYesNoCount").implement({
  fields: (t) => ({ yes: t.exposeInt("yes"), no: t.exposeInt("no") }),
});

const UserDirectoryFacetsRef = builder.objectRef<DirectoryFacets>("UserDirectoryFacets").implement({
  description: "Users matching the filter, counted by each facet value; each facet adds up to total.",
  fields: (t) => ({
    total: t.exposeInt("total"),
    userTypes: t.field({ type: [FacetCountRef], resolve: (f) => f.userTypes }),
    userStatuses: t.field({ type: [FacetCountRef], resolve: (f) => f.userStatuses }),
    accessLevels: t.field({ type: [FacetCountRef], resolve: (f) => f.accessLevels }),
    emailVerified: t.field({ type: YesNoCountRef, resolve: (f) => f.emailVerified }),
    esrtSynced: t.field({ type: YesNoCountRef, resolve: (f) => f.esrtSynced }),
  }),
});

builder.queryField("userDirectory", (t) =>
  t.field({
    type: UserDirectoryPageRef,
    description:
      "Users matching the filter in the sort's order (default: newest first), `first` (1 to 200, default 50) after the cursor.",
    authScopes: SCOPE,
    errors: { types: [AppError] },
    args: {
      filter: t.arg({ type: UserFilterInput }),
      sort: t.arg({ type: UserSortInput }),
      first: t.arg.int(),
      after: t.arg.string(),
    },
    resolve: (_root, args, ctx) =>
      runIdentity(async () => {
        const page = await searchUsers(ctx.db, {
          filter: withoutNulls(args.filter),
          sort: withoutNulls(args.sort),
          first: args.first ?? undefined,
          after: args.after ?? undefined,
        });
        return { ...page, nodes: page.nodes.map(nodeOf) };
      }),
  }),
);

builder.queryField("userDirectoryFacets", (t) =>
  t.field({
    type: UserDirectoryFacetsRef,
    description: "The counts per type, status, access level, verified and synced for the filter.",
    authScopes: SCOPE,
    errors: { types: [AppError] },
    args: { filter: t.arg({ type: UserFilterInput }) },
    resolve: (_root, args, ctx) =>
      runIdentity(() => userDirectoryFacets(ctx.db, { filter: withoutNulls(args.filter) })),
  }),
);
