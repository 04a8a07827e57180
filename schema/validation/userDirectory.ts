import { z } from "zod";
import { instant, text } from "./primitives";
import { USER_TYPES } from "./user";

// The user directory's filter (issue 11): one definition for the search, the facet counts, the CSV
// export and the bulk changes that act on "every user matching the filter", on the server and in the
// admin's form.

export const USER_STATUSES = ["active", "inactive", "archived"] as const;
export const ACCESS_LEVELS = ["full", "limited"] as const;
export const USER_SORTS = ["name", "createdAt", "lastLoginAt"] as const;
export const SORT_DIRECTIONS = ["asc", "desc"] as const;

/** The longest search text: a search is for finding one account, not for pasting documents. */
export const MAX_SEARCH_LENGTH = 100;

/** Which users: every field optional, the fields combined with AND, the values of one list with OR. */
export const userFilterSchema = z
  .object({
    /** matched case-insensitively against parts of username, email, names, company, phone, uniqueId */
    q: text()
      .trim()
      .max(MAX_SEARCH_LENGTH, `Search text must be at most ${MAX_SEARCH_LENGTH} characters`)
      .optional(),
    userTypes: z.array(z.enum(USER_TYPES)).max(USER_TYPES.length).optional(),
    userStatuses: z.array(z.enum(USER_STATUSES)).max(USER_STATUSES.length).optional(),
    accessLevels: z.array(z.enum(ACCESS_LEVELS)).max(ACCESS_LEVELS.length).optional(),
    emailVerified: z.boolean().optional(),
    esrtSynced: z.boolean().optional(),
    createdFrom: instant().optional(),
    createdTo: instant().optional(),
    lastLoginFrom: instant().optional(),
    lastLoginTo: instant().optional(),
  })
  .refine((f) => !(f.createdFrom && f.createdTo && f.createdFrom > f.createdTo), {
    message: "The start of a range must not be after its end",
    path: ["createdTo"],
  })
  .refine((f) => !(f.lastLoginFrom && f.lastLoginTo && f.lastLoginFrom > f.lastLoginTo), {
    message: "The start of a range must not be after its end",
    path: ["lastLoginTo"],
  });

export type UserFilter = z.infer<typeof userFilterSchema>;

/** The order of a directory page. */
export const userSortSchema = z.object({
  by: z.enum(USER_SORTS).default("createdAt"),
  direction: z.enum(SORT_DIRECTIONS).default("desc"),
});

export type UserSort = z.infer<typeof userSortSchema>;
