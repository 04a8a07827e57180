import { z } from "zod";
import { PASSWORD_MAX_LENGTH } from "./user";

// The security settings (issue 12, manage:config): one schema for the admin form and the server.
// Every number is bounded so that no value turns a protection off: the spec's password rules (8 or
// more, a digit, a special character) always hold, and sign-in stays rate limited.

/** The bounds of each number, shown beside its field. */
export const SECURITY_BOUNDS = {
  minPasswordLength: { min: 8, max: 64 },
  loginIpAttempts: { min: 10, max: 1000 },
  loginAccountFreeFailures: { min: 3, max: 20 },
  loginAccountMaxDelayMinutes: { min: 1, max: 60 },
} as const;

/** The window the per-address sign-in limit counts over (fixed). */
export const LOGIN_IP_WINDOW_MINUTES = 15;

type Bounded = keyof typeof SECURITY_BOUNDS;

const LABELS: Record<Bounded, string> = {
  minPasswordLength: "Minimum password length",
  loginIpAttempts: "Failed sign-ins per address",
  loginAccountFreeFailures: "Failures before delays",
  loginAccountMaxDelayMinutes: "Longest delay",
};

/** The message of a number outside its bounds, e.g. 'Minimum password length must be from 8 to 64'. */
export function boundsMessage(field: Bounded): string {
  const { min, max } = SECURITY_BOUNDS[field];
  return `${LABELS[field]} must be a whole number from ${min} to ${max}`;
}

const bounded = (field: Bounded) =>
  z
    .number({ error: boundsMessage(field) })
    .int(boundsMessage(field))
    .min(SECURITY_BOUNDS[field].min, boundsMessage(field))
    .max(SECURITY_BOUNDS[field].max, boundsMessage(field));

export const securitySettingsSchema = z.object({
  requireVerifiedEmail: z.boolean(),
  revealUnknownAccounts: z.boolean(),
  requireEnhancedForAdmins: z.boolean(),
  /** issue 20; a form that predates them may leave them out (they keep their value) */
  requireTwoFactorForAdmins: z.boolean().optional(),
  requireTwoFactorForEveryone: z.boolean().optional(),
  minPasswordLength: bounded("minPasswordLength"),
  loginIpAttempts: bounded("loginIpAttempts"),
  loginAccountFreeFailures: bounded("loginAccountFreeFailures"),
  loginAccountMaxDelayMinutes: bounded("loginAccountMaxDelayMinutes"),
});
export type SecuritySettingsInput = z.input<typeof securitySettingsSchema>;
export type SecuritySettingsValues = z.output<typeof securitySettingsSchema>;

/** The spec's shortest password; the stored minimum is never below it. */
export const SPEC_MIN_PASSWORD_LENGTH = 8;

/** 'Password must be at least {n} characters' (spec §5's words, with the stored minimum). */
export function passwordLengthMessage(minLength: number): string {
  return `Password must be at least ${minLength} characters`;
}

/**
 * Whether a password is long enough for the stored minimum (the spec's digit and special-character
 * rules are passwordSchema's and always hold); returns the message when it is not.
 */
export function passwordLengthProblem(password: string, minLength: number): string | null {
  const min = Math.min(Math.max(minLength, SPEC_MIN_PASSWORD_LENGTH), PASSWORD_MAX_LENGTH);
  return password.length < min ? passwordLengthMessage(min) : null;
}
