import { z } from "zod";
import { registrationSchema } from "./user";

// What an administrator may edit on a user's profile (issue 11): the registration form's own field
// rules and messages, picked from its schema so both forms always agree.

/** The profile an administrator edits (the whole profile is sent; an empty phone or company clears it). */
export const adminProfileSchema = registrationSchema.pick({
  username: true,
  email: true,
  firstName: true,
  lastName: true,
  phone: true,
  companyName: true,
});
export type AdminProfileInput = z.input<typeof adminProfileSchema>;
export type AdminProfile = z.output<typeof adminProfileSchema>;

/** The fields of {@link adminProfileSchema}, in form order. */
export const ADMIN_PROFILE_FIELDS = [
  "username",
  "email",
  "firstName",
  "lastName",
  "phone",
  "companyName",
] as const;

/** The most rows a list of the user drawer (notes, appointments, documents) answers at once. */
export const DRAWER_LIST_MAX = 1000;
/** The rows a list of the user drawer shows at first, and adds with each "Show more". */
export const DRAWER_LIST_STEP = 50;

/** How many of a user's notes, appointments or documents the drawer asks for, newest first. */
export const drawerListSchema = z.object({
  first: z
    .number()
    .int(`first is 1 to ${DRAWER_LIST_MAX}`)
    .min(1, `first is 1 to ${DRAWER_LIST_MAX}`)
    .max(DRAWER_LIST_MAX, `first is 1 to ${DRAWER_LIST_MAX}`)
    .default(DRAWER_LIST_STEP),
});
