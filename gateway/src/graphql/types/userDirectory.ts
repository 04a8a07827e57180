import {
  SORT_DIRECTIONS,
  USER_SORTS,
  type UserFilter,
  userFilterSchema,
} from "../../../../schema/validation/userDirectory";
import { parse } from "../../rest/handle";
import { withoutNulls } from "../args";
import { builder } from "../builder";
import { AccessLevelEnum, UserStatusEnum, UserTypeEnum } from "./user";

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
  return parse(userFilterSchema, withoutNulls(input));
}
