/**
 * The user service's expected failures. Each code is turned into an HTTP status and a GraphQL error
 * by the gateway's one mapper (gateway/src/errors.ts, exhaustive over this union).
 */
export const userErrorCodes = [
  "INVALID_CREDENTIALS",
  "ACCOUNT_NOT_FOUND",
  "ACCOUNT_INACTIVE",
  "EMAIL_NOT_VERIFIED",
  "ADMIN_REGISTRATION",
  "USERNAME_TAKEN",
  "EMAIL_TAKEN",
  "COMMON_PASSWORD",
  "WRONG_PASSWORD",
  "INVALID_RESET_TOKEN",
  "INVALID_VERIFICATION_TOKEN",
  "SECURITY_VERIFICATION_FAILED",
  "NO_SECURITY_QUESTIONS",
  "SECURITY_QUESTIONS_REQUIRED",
  "USER_NOT_FOUND",
  "NOT_ALLOWED",
  "TWO_FACTOR_FAILED",
  "INVALID_TWO_FACTOR_CODE",
  "TWO_FACTOR_CONFLICT",
] as const;

export type UserErrorCode = (typeof userErrorCodes)[number];

export class UserError extends Error {
  readonly code: UserErrorCode;
  /** client-safe facts (an account status, a field's messages) */
  readonly details?: Record<string, unknown>;

  constructor(code: UserErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = "UserError";
    this.code = code;
    this.details = details;
  }
}

/** Whether `err` is a UserError (also across module copies, by shape). */
export function isUserError(err: unknown): err is UserError {
  if (err instanceof UserError) return true;
  if (!(err instanceof Error) || err.name !== "UserError") return false;
  const code: unknown = Reflect.get(err, "code");
  return typeof code === "string" && (userErrorCodes as readonly string[]).includes(code);
}

export const INVALID_CREDENTIALS_MESSAGE = "Invalid login credentials";
export const SECURITY_VERIFICATION_FAILED_MESSAGE = "Security verification failed";
export const SECURITY_QUESTIONS_REQUIRED_MESSAGE =
  "Security questions are required for this account. Please contact support.";

/** A second factor at sign-in that did not hold (issue 20). */
export const TWO_FACTOR_FAILED_MESSAGE = "Invalid two-factor code";
/** A code that did not match while setting up or confirming it is you. */
export const INVALID_TWO_FACTOR_CODE_MESSAGE =
  "That code is not right. Check that your device's time is correct and try again.";
