import { z } from "zod";
import { userSnapshotSchema } from "../esrt/contract";
import { defineEvent, id, isoDate, sealedToken } from "./define";

// User events. Payloads never carry passwords, hashes or security answers; the one-time tokens of
// verification and reset travel sealed (services/shared/sealed.ts).

const userType = z.enum(["user", "prospect", "client", "mainAdmin", "userAdmin"]);
const userStatus = z.enum(["active", "inactive", "archived"]);

/** Fields of a user a consumer may need to address them. */
const contact = {
  userId: id,
  uniqueId: z.string().min(1),
  email: z.email(),
  firstName: z.string(),
  lastName: z.string(),
};

/** `version` of the user row after the change (the Pro app sync compares it). */
const userVersion = z.number().int().positive();

/**
 * The user as the Pro app sees them after the change (issue 10), on every event of a change the Pro
 * app must know: the esrt-sync service keeps the latest one. Optional: events written before it
 * existed lack it (an added optional field, so no new event version).
 */
const snapshot = userSnapshotSchema.optional();

/**
 * What the event of a new account carries (user.registered, user.invited): whom to address, the
 * account, the sync snapshot and the one-time token (email verification, or invitation), sealed,
 * that its email's link carries.
 */
const newAccount = {
  ...contact,
  username: z.string().min(1),
  userType,
  companyName: z.string().nullable(),
  userVersion,
  snapshot,
  sealedToken,
  tokenExpiresAt: isoDate,
};

export const userRegistered = defineEvent(
  "user.registered",
  1,
  z.object({
    ...newAccount,
    /** what the person wrote when registering (the team's notification shows it) */
    registrationNotes: z.string().max(5000).nullable().optional(),
  }),
);

/**
 * An administrator created an account and invited its owner (issue 11): no password yet; the
 * invitation link (72 hours, single use) sets it. Carries the sync snapshot like user.registered.
 */
export const userInvited = defineEvent(
  "user.invited",
  1,
  z.object({
    ...newAccount,
    /** the inviting administrator's name, for the email */
    invitedBy: z.string(),
  }),
);

export const userEmailVerified = defineEvent(
  "user.email_verified",
  1,
  z.object({
    userId: id,
    uniqueId: z.string().min(1),
    email: z.email(),
    userVersion,
    snapshot,
    /** for the welcome email's greeting (optional: the email falls back to a neutral greeting) */
    firstName: z.string().optional(),
    lastName: z.string().optional(),
    /** the welcome email reminds the user of it (optional: the email address is shown instead) */
    username: z.string().min(1).optional(),
  }),
);

/**
 * What an event asking for a token email carries (user.password_reset_requested: the reset token;
 * user.verification_requested: the email verification token), the token sealed.
 */
const tokenEmail = {
  userId: id,
  email: z.email(),
  firstName: z.string(),
  sealedToken,
  tokenExpiresAt: isoDate,
};

export const userPasswordResetRequested = defineEvent(
  "user.password_reset_requested",
  1,
  z.object(tokenEmail),
);

/** A new verification link was asked for (the address is not verified yet). */
export const userVerificationRequested = defineEvent("user.verification_requested", 1, z.object(tokenEmail));

export const userPasswordChanged = defineEvent(
  "user.password_changed",
  1,
  z.object({
    userId: id,
    email: z.email(),
    firstName: z.string(),
    via: z.enum(["reset", "self", "admin"]),
  }),
);

/** The changes to a user's two-factor sign-in that the user is told of by email (issue 20). */
export const TWO_FACTOR_CHANGES = [
  "authenticator_added",
  "authenticator_removed",
  "passkey_added",
  "passkey_removed",
  "recovery_codes_regenerated",
  "two_factor_turned_off",
  "two_factor_reset",
] as const;
export type TwoFactorChange = (typeof TWO_FACTOR_CHANGES)[number];

export const userTwoFactorChanged = defineEvent(
  "user.two_factor_changed",
  1,
  z.object({
    userId: id,
    email: z.email(),
    firstName: z.string(),
    change: z.enum(TWO_FACTOR_CHANGES),
    /** the passkey's name, for a passkey added or removed */
    passkeyName: z.string().optional(),
  }),
);

export const userUpdated = defineEvent(
  "user.updated",
  1,
  z.object({
    ...contact,
    /** names of the fields that changed, e.g. ["phone", "userType"] */
    changedFields: z.array(z.string().min(1)).min(1),
    userType,
    userVersion,
    snapshot,
  }),
);

export const userStatusChanged = defineEvent(
  "user.status_changed",
  1,
  z.object({
    ...contact,
    previousStatus: userStatus,
    status: userStatus,
    userVersion,
    snapshot,
  }),
);

export const userSecurityQuestionsSet = defineEvent(
  "user.security_questions_set",
  1,
  z.object({ userId: id, uniqueId: z.string().min(1), userVersion }),
);

export const userNotesUpdated = defineEvent(
  "user.notes_updated",
  1,
  z.object({
    ...contact,
    username: z.string().min(1),
    companyName: z.string().nullable(),
    noteHistoryId: id,
    notes: z.string().max(20_000),
    wordCount: z.number().int().min(0),
  }),
);

export const userEvents = [
  userRegistered,
  userInvited,
  userEmailVerified,
  userPasswordResetRequested,
  userVerificationRequested,
  userPasswordChanged,
  userTwoFactorChanged,
  userUpdated,
  userStatusChanged,
  userSecurityQuestionsSet,
  userNotesUpdated,
] as const;
