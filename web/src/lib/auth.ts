import type { SafeUser, SecurityChallenge } from "@schema/api/user";
import { getQueryFn } from "@web/data/api";

export type { SafeUser, SecurityChallenge } from "@schema/api/user";

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

/** Whether a POST /api/login answer asks for a security answer before the session is granted. */
export function isSecurityChallenge(value: SafeUser | SecurityChallenge): value is SecurityChallenge {
  return "needsSecurityAnswer" in value && value.needsSecurityAnswer === true;
}
