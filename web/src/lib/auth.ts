import type { SafeUser, SecurityChallenge, TwoFactorChallenge } from "@schema/api/user";
import { getQueryFn } from "@web/data/api";

export type { SafeUser, SecurityChallenge, TwoFactorChallenge } from "@schema/api/user";

/** Cache key (and path) of the current user. */
export const CURRENT_USER_KEY = "/api/user";

/** Spec §4/§9: the current user is cached 30 seconds and fetched with 1 retry. */
export const CURRENT_USER_OPTIONS = { staleTime: 30_000, retry: 1 } as const;

const getUserOrNull = getQueryFn<SafeUser>({ on401: "returnNull" });

/**
 * GET /api/user: the signed-in user, or null when the server answers 401 (signed out).
 * @throws Error "<status>: <body>" for other failures, TypeError when the network fails.
 */
export function fetchCurrentUser(): Promise<SafeUser | null> {
  return getUserOrNull(CURRENT_USER_KEY);
}

/** The current user as components see it. */
export interface CurrentUser {
  user: SafeUser | null;
  isLoading: boolean;
  error: Error | undefined;
  refetch(): Promise<SafeUser | null>;
}

/**
 * What a sign-in step answers (POST /api/login, its second step, a passkey alone): the signed-in
 * user, the enhanced level's question, or a second factor to give first (issue 20).
 */
export type SignInAnswer = SafeUser | SecurityChallenge | TwoFactorChallenge;

/** Whether a POST /api/login answer asks for a security answer before the session is granted. */
export function isSecurityChallenge(value: SignInAnswer): value is SecurityChallenge {
  return "needsSecurityAnswer" in value && value.needsSecurityAnswer === true;
}

/** Whether a sign-in answer asks for a second factor before the session is granted (issue 20). */
export function isTwoFactorChallenge(value: SignInAnswer): value is TwoFactorChallenge {
  return "twoFactorRequired" in value && value.twoFactorRequired === true;
}

/** Whether a sign-in answer is the signed-in user (no further step). */
export function isSignedInUser(value: SignInAnswer): value is SafeUser {
  return !isSecurityChallenge(value) && !isTwoFactorChallenge(value);
}
