import type { SafeUser, SecurityChallenge } from "@schema/api/user";
import type { LoginInput, RegistrationInput } from "@schema/validation/user";
import { apiRequest, discardBody, getQueryFn } from "./api";
import { loginFailureMessage, serverMessage } from "./apiErrors";
import { useBranding } from "./branding";
import { type Mutation, useMutation } from "./mutation";
import { PERMISSION_CHECK_PATH } from "./permissions";
import { type RestQueryOptions, restCache, useRestQuery } from "./restCache";
import { showToast } from "./toast";

export type { SafeUser, SecurityChallenge } from "@schema/api/user";

/** Cache key (and path) of the current user. */
export const CURRENT_USER_KEY = "/api/user";

/** Spec §4/§9: the current user is cached 30 seconds and fetched with 1 retry. */
export const CURRENT_USER_OPTIONS: Required<RestQueryOptions> = { staleTime: 30_000, retry: 1 };

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

/** Fetches the current user again now (ignoring the 30 s cache); resolves null when that fails. */
export function refetchCurrentUser(): Promise<SafeUser | null> {
  return restCache
    .fetch(CURRENT_USER_KEY, fetchCurrentUser, { ...CURRENT_USER_OPTIONS, staleTime: 0 })
    .catch(() => null);
}

/** Replaces the cached current user (null signs the app out) and forgets cached permission checks. */
export function setCurrentUser(user: SafeUser | null): void {
  restCache.set(CURRENT_USER_KEY, user);
  restCache.invalidatePrefix(PERMISSION_CHECK_PATH);
}

/**
 * The signed-in user (spec §4): fetched on first use, cached 30 seconds, 1 retry, null after a 401.
 * `isLoading` is true until the first answer.
 */
export function useCurrentUser(): CurrentUser {
  const state = useRestQuery<SafeUser | null>(CURRENT_USER_KEY, fetchCurrentUser, CURRENT_USER_OPTIONS);
  return {
    user: state.data ?? null,
    isLoading: state.data === undefined && state.status !== "error",
    error: state.error,
    refetch: refetchCurrentUser,
  };
}

/** Whether a POST /api/login answer asks for a security answer before the session is granted. */
export function isSecurityChallenge(value: SafeUser | SecurityChallenge): value is SecurityChallenge {
  return "needsSecurityAnswer" in value && value.needsSecurityAnswer === true;
}

/** Makes `user` the current user at once and refreshes it from the server (spec §4, after login). */
export function completeSignIn(user: SafeUser): void {
  setCurrentUser(user);
  void refetchCurrentUser();
}

/**
 * POST /api/login. A user answer replaces the cached user and refreshes it; an enhanced-security
 * account answers a challenge instead (the caller shows the security step). Failures show the
 * 'Login failed' toast of spec §8.
 */
export function useLogin(): Mutation<LoginInput, SafeUser | SecurityChallenge> {
  const { supportPhone } = useBranding();
  return useMutation<LoginInput, SafeUser | SecurityChallenge>({
    mutate: async (input) =>
      (await (await apiRequest("POST", "/api/login", input)).json()) as SafeUser | SecurityChallenge,
    onSuccess: (result) => {
      if (!isSecurityChallenge(result)) completeSignIn(result);
    },
    onError: (error) =>
      showToast({
        title: "Login failed",
        description: loginFailureMessage(error, supportPhone),
        intent: "destructive",
      }),
  });
}

/**
 * POST /api/register: the returned user becomes the current user (signed in at once, spec §4), with
 * 'Registration successful'; failures show 'Registration failed' with the server's message.
 */
export function useRegister(): Mutation<RegistrationInput, SafeUser> {
  const { title } = useBranding();
  return useMutation<RegistrationInput, SafeUser>({
    mutate: async (input) => (await (await apiRequest("POST", "/api/register", input)).json()) as SafeUser,
    onSuccess: (user) => {
      setCurrentUser(user);
      showToast({ title: "Registration successful", description: `Welcome to ${title} Portal` });
    },
    onError: (error) =>
      showToast({
        title: "Registration failed",
        description: serverMessage(error, "Registration failed"),
        intent: "destructive",
      }),
  });
}

/**
 * POST /api/logout (answer read and dropped): clears the cached user; `run` resolves true once signed out. A
 * failure shows 'Logout failed'.
 */
export function useLogout(): Mutation<void, true> {
  return useMutation<void, true>({
    mutate: async () => {
      await discardBody(await apiRequest("POST", "/api/logout"));
      return true;
    },
    onSuccess: () => setCurrentUser(null),
    onError: (error) =>
      showToast({
        title: "Logout failed",
        description: serverMessage(error, error.message),
        intent: "destructive",
      }),
  });
}
