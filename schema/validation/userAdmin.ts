import { z } from "zod";
import { adminProfileSchema } from "./adminUser";
import { text } from "./primitives";
import { resetConfirmSchema, USER_TYPES } from "./user";
import { ACCESS_LEVELS, USER_STATUSES } from "./userDirectory";

// What an administrator gives when creating users, one by one or from a CSV file, and when changing
// many at once (issue 11). The fields are the registration's (spec §5), with its messages: they are
// picked from registrationSchema, never written again.

/**
 * The registration's fields an administrator fills in for a new user (no password: an invitation
 * sets it): the same fields, rules and messages as the profile an administrator edits.
 */
export const newUserFieldsSchema = adminProfileSchema;

/** Creating one user: the registration's fields and any user type (the server checks the admin may grant it). */
export const newUserSchema = newUserFieldsSchema.extend({
  userType: z.enum(USER_TYPES, { message: "Please choose a user type" }),
});
export type NewUserInput = z.input<typeof newUserSchema>;
export type NewUser = z.output<typeof newUserSchema>;

/** Accepting an invitation: the emailed token and the first password (the registration's password rules). */
export const acceptInvitationSchema = z.object({
  token: text().trim().min(16, "The invitation link is invalid").max(512, "The invitation link is invalid"),
  password: resetConfirmSchema.shape.password,
});

/** The header row a client import file starts with, in this order. */
export const IMPORT_COLUMNS = ["firstName", "lastName", "username", "email", "phone", "companyName"] as const;
/** At most this many data rows in one import file. */
export const IMPORT_MAX_ROWS = 5000;
/** At most this many bytes in one import file (UTF-8). */
export const IMPORT_MAX_BYTES = 2 * 1024 * 1024;

/** The most users one bulk change may name by id. */
export const BULK_MAX_IDS = 10_000;
/** The most users one bulk change may reach through a filter. */
export const BULK_MAX_FILTERED = 100_000;

/** What a bulk change does to each selected user. */
export const BULK_ACTIONS = ["setStatus", "setType", "setAccessLevel", "resendVerification"] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

/** A bulk change: the action and, for the set actions, the value it sets (checked against the action). */
export const bulkActionSchema = z
  .object({
    action: z.enum(BULK_ACTIONS, { message: "Please choose an action" }),
    value: text().trim().max(20).optional(),
  })
  .superRefine((v, ctx) => {
    const allowed: Record<BulkAction, readonly string[] | null> = {
      setStatus: USER_STATUSES,
      setType: USER_TYPES,
      setAccessLevel: ACCESS_LEVELS,
      resendVerification: null,
    };
    const values = allowed[v.action];
    if (values && (v.value === undefined || !values.includes(v.value))) {
      ctx.addIssue({
        code: "custom",
        path: ["value"],
        message: `Please choose one of: ${values.join(", ")}`,
      });
    }
  });
export type BulkActionInput = z.output<typeof bulkActionSchema>;
