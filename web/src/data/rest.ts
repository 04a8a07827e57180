import type { TypedDocumentNode } from "@apollo/client";
import { useApolloClient, useMutation, useQuery } from "@apollo/client/react";
import type { UserCard } from "@schema/api/user";
import type { LoginInput, RegistrationInput } from "@schema/validation/user";
import { loginFailureMessage, serverMessage } from "@web/lib/apiErrors";
import {
  CURRENT_USER_OPTIONS,
  type CurrentUser,
  isSignedInUser,
  type SafeUser,
  type SignInAnswer,
} from "@web/lib/auth";
import {
  BRANDING_TTL_MS,
  brandingWithDefaults,
  DEFAULT_BRANDING,
  type PublicBranding,
} from "@web/lib/branding";
import { passwordMinLength } from "@web/lib/passwordMinimum";
import { notAdmin, PERMISSION_CHECK_OPTIONS, type PermissionCheckResult } from "@web/lib/permissions";
import { defaultServerConfig, SERVER_CONFIG_TTL_MS, type ServerConfig } from "@web/lib/serverConfig";
import { showToast } from "@web/lib/toast";
import { useCallback, useEffect, useRef } from "react";
import { apolloClient } from "./client";
import type { RestRequest } from "./restHandlers";
import { markRestFetched, restDocument, restFetchedAt, restKey } from "./restLink";

// The one module through which components reach the REST calls of the spec (spec §7): each is a field
// of Apollo Client's cache, read with the hooks below and written by the mutations below, so a change
// made anywhere (a sign-in, saved notes, a branding save over GraphQL) shows in every component that
// reads it. Stale times are the spec's (current user 30 s, permission checks 60 s, server config an
// hour, branding and the password policy a minute); everything else keeps the defaults: no retry,
// never stale, no refetch on focus, no polling.

const CurrentUserDocument = restDocument<{ currentUser: SafeUser | null }>("query", "currentUser");
const BrandingDocument = restDocument<{ branding: PublicBranding & { __typename: string } }>(
  "query",
  "branding",
  [],
  ["title", "logoUrl", "supportPhone", "consultationEmail", "businessHours"],
);
const PermissionCheckDocument = restDocument<
  { permissionCheck: PermissionCheckResult },
  { permissions: readonly string[] }
>("query", "permissionCheck", ["permissions"]);
const ServerConfigDocument = restDocument<{ serverConfig: ServerConfig }>("query", "serverConfig");
const PasswordPolicyDocument = restDocument<{ passwordPolicy: { minLength: number } }>(
  "query",
  "passwordPolicy",
);
const UserByUniqueIdDocument = restDocument<{ userByUniqueId: UserCard }, { uniqueId: string }>(
  "query",
  "userByUniqueId",
  ["uniqueId"],
);
const SendDocument = restDocument<{ send: unknown }, { request: RestRequest }>("mutation", "send", [
  "request",
]);

/**
 * Reads a `@rest` field from the cache (fetching it when missing) and fetches it again when the copy is
 * older than `staleTime` as a component mounts. Errors are returned, never thrown into rendering.
 */
function useRestField<TData, TVariables extends Record<string, unknown>>(
  document: TypedDocumentNode<TData, TVariables>,
  field: string,
  staleTime: number,
  variables?: TVariables,
): { data: TData | undefined; error: Error | undefined } {
  const result = useQuery(document as TypedDocumentNode<TData, Record<string, unknown>>, { variables });
  const data = result.dataState === "complete" ? (result.data as TData) : undefined;
  const key = restKey(field, variables ?? {});
  const { refetch } = result;
  const hasData = data !== undefined;
  useEffect(() => {
    if (!hasData || Date.now() - restFetchedAt(key) < staleTime) return;
    void refetch().catch(() => undefined);
  }, [key, hasData, staleTime, refetch]);
  return { data, error: result.error };
}

// ---- the current user (spec §4, §7 GET /api/user) ----

/** Fetches the current user again now (ignoring the 30 s cache); resolves null when that fails. */
export async function refetchCurrentUser(): Promise<SafeUser | null> {
  try {
    const { data } = await apolloClient().query({ query: CurrentUserDocument, fetchPolicy: "network-only" });
    return (data?.currentUser as SafeUser | null | undefined) ?? null;
  } catch {
    return null;
  }
}

/** Replaces the cached current user (null signs the app out) and forgets cached permission checks. */
export function setCurrentUser(user: SafeUser | null): void {
  const { cache } = apolloClient();
  cache.writeQuery({ query: CurrentUserDocument, data: { currentUser: user } });
  markRestFetched(restKey("currentUser"));
  cache.evict({ id: "ROOT_QUERY", fieldName: "permissionCheck" });
  cache.gc();
}

/** Whether the cache still holds a signed-out user's answers, to be dropped once their pages are gone. */
let cacheOfSignedOutUser = false;

/**
 * Signs the app out in this tab: the current user becomes null at once (the guards leave signed-in
 * pages), and {@link useCacheResetAfterSignOut} then empties the cache.
 */
export function signOutLocally(): void {
  cacheOfSignedOutUser = true;
  setCurrentUser(null);
}

/**
 * After a sign-out, once the app has rendered signed out (the signed-in pages unmounted, so none of
 * their queries is asked again), empties the cache and reads again what is on screen: a list read
 * with cache-and-network would otherwise show the user before's documents or appointments to whoever
 * signs in next in the same tab, until the network answered. Mounted once, by the app's layout.
 */
export function useCacheResetAfterSignOut(signedIn: boolean): void {
  const client = useApolloClient();
  useEffect(() => {
    if (!cacheOfSignedOutUser || signedIn) return;
    cacheOfSignedOutUser = false;
    client.resetStore().catch(() => undefined);
  }, [client, signedIn]);
}

/** Changes fields of the cached current user (after saving their notes, say). */
export function updateCurrentUser(patch: Partial<SafeUser>): void {
  apolloClient().cache.updateQuery({ query: CurrentUserDocument }, (data) =>
    data?.currentUser ? { currentUser: { ...data.currentUser, ...patch } } : data,
  );
}

/**
 * The signed-in user (spec §4): fetched on first use, cached 30 seconds, 1 retry, null after a 401.
 * `isLoading` is true until the first answer.
 */
export function useCurrentUser(): CurrentUser {
  const { data, error } = useRestField(CurrentUserDocument, "currentUser", CURRENT_USER_OPTIONS.staleTime);
  return {
    user: data?.currentUser ?? null,
    isLoading: data === undefined && !error,
    error,
    refetch: refetchCurrentUser,
  };
}

/** Makes `user` the current user at once and refreshes it from the server (spec §4, after login). */
export function completeSignIn(user: SafeUser): void {
  setCurrentUser(user);
  void refetchCurrentUser();
}

// ---- REST mutations ----

/** A mutation as a component uses it: run it, and whether it is running. */
export interface Mutation<I, R> {
  /** Runs the mutation; resolves with its result, or undefined when it failed (onError has run). */
  run(input: I): Promise<R | undefined>;
  isPending: boolean;
  error: Error | undefined;
}

/** What a REST mutation sends and what happens after it. */
export interface RestMutationOptions<I, R> {
  request(input: I): RestRequest;
  onSuccess?(result: R, input: I): void;
  onError?(error: Error, input: I): void;
}

/**
 * A REST mutation of the spec (no retry): sends `request(input)` through the data client (never
 * cached: bodies carry passwords and answers), tracks pending and error, and calls onSuccess or
 * onError. `run` never throws.
 */
export function useRestMutation<I, R>(options: RestMutationOptions<I, R>): Mutation<I, R> {
  const [send, state] = useMutation(SendDocument, { fetchPolicy: "no-cache" });
  const latest = useRef(options);
  latest.current = options;
  const run = useCallback(
    async (input: I): Promise<R | undefined> => {
      try {
        const { data } = await send({ variables: { request: latest.current.request(input) } });
        const result = data?.send as R;
        latest.current.onSuccess?.(result, input);
        return result;
      } catch (caught) {
        const err = caught instanceof Error ? caught : new Error(String(caught));
        latest.current.onError?.(err, input);
        return undefined;
      }
    },
    [send],
  );
  return { run, isPending: state.loading, error: state.error };
}

/**
 * A function that sends one REST request through the data client and resolves with its JSON answer.
 * @throws Error "<status>: <body>" for a non-OK answer (spec §7).
 */
export function useRestSend(): (request: RestRequest) => Promise<unknown> {
  const client = useApolloClient();
  return useCallback(
    async (request: RestRequest) => {
      const { data } = await client.mutate({
        mutation: SendDocument,
        variables: { request },
        fetchPolicy: "no-cache",
      });
      return data?.send;
    },
    [client],
  );
}

/**
 * POST /api/login. A user answer replaces the cached user and refreshes it; an enhanced-security
 * account answers a challenge instead, and an account with a second factor asks for it (the caller
 * shows the next step). Failures show the 'Login failed' toast of spec §8.
 */
export function useLogin(): Mutation<LoginInput, SignInAnswer> {
  const { supportPhone } = useBranding();
  return useRestMutation<LoginInput, SignInAnswer>({
    request: (input) => ({ method: "POST", path: "/api/login", body: input }),
    onSuccess: (result) => {
      if (isSignedInUser(result)) completeSignIn(result);
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
  return useRestMutation<RegistrationInput, SafeUser>({
    request: (input) => ({ method: "POST", path: "/api/register", body: input }),
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
 * POST /api/logout (answer read and dropped), then {@link signOutLocally}; `run` resolves true once
 * signed out. A failure shows 'Logout failed'.
 */
export function useLogout(): Mutation<void, true> {
  const mutation = useRestMutation<void, null>({
    request: () => ({ method: "POST", path: "/api/logout", read: "discard" }),
    onSuccess: signOutLocally,
    onError: (error) =>
      showToast({
        title: "Logout failed",
        description: serverMessage(error, error.message),
        intent: "destructive",
      }),
  });
  const { run } = mutation;
  const runLogout = useCallback(
    async () => ((await run()) === undefined ? undefined : (true as const)),
    [run],
  );
  return { ...mutation, run: runLogout };
}

/**
 * POST /api/user/notes (spec §7, answer read as JSON); once saved, the cached current user carries the
 * new notes wherever it is shown.
 * @throws Error "<status>: <body>" for a non-OK answer.
 */
export function useSaveNotes(): (notes: string) => Promise<void> {
  const send = useRestSend();
  return useCallback(
    async (notes: string) => {
      await send({ method: "POST", path: "/api/user/notes", body: { notes } });
      updateCurrentUser({ notes });
    },
    [send],
  );
}

// ---- branding, server config, password policy, permission checks ----

/**
 * The portal's branding (shared DECISIONS, Branding): the product title of the top bar and of
 * 'Welcome to {product} Portal', the support phone of the deactivated-account message, and the
 * consultation contact. Read from GET /api/branding, again on a page's load once a minute old; the
 * defaults until it answers. The same cached object as the admin's branding settings.
 */
export function useBranding(): PublicBranding {
  const { data } = useRestField(BrandingDocument, "branding", BRANDING_TTL_MS);
  return data ? brandingWithDefaults(data.branding) : DEFAULT_BRANDING;
}

/**
 * Keeps the shell's branding at most a minute stale while the page stays open: once a minute (while
 * the tab is visible) a stale copy is read again; the answer is usually a 304. Used once, by the layout.
 */
export function useBrandingRefresh(): void {
  const client = useApolloClient();
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === "hidden") return;
      if (Date.now() - restFetchedAt(restKey("branding")) < BRANDING_TTL_MS) return;
      client.query({ query: BrandingDocument, fetchPolicy: "network-only" }).catch(() => undefined);
    }, BRANDING_TTL_MS);
    return () => clearInterval(timer);
  }, [client]);
}

const fallbackConfig = defaultServerConfig();

/**
 * The server's config from GET /api/server-config (spec §7), cached for an hour; the built-in default
 * until the first answer (and when the server cannot be reached).
 */
export function useServerConfig(): { config: ServerConfig; fromServer: boolean } {
  const { data } = useRestField(ServerConfigDocument, "serverConfig", SERVER_CONFIG_TTL_MS);
  return data
    ? { config: data.serverConfig, fromServer: true }
    : { config: fallbackConfig, fromServer: false };
}

/**
 * The shortest password the server accepts (issue 12's security setting, never below the spec's 8),
 * read again once a minute old; the spec's 8 until the server answers.
 */
export function usePasswordMinLength(): number {
  const { data } = useRestField(PasswordPolicyDocument, "passwordPolicy", 60_000);
  return passwordMinLength(data?.passwordPolicy);
}

/** A permission check as the admin guard sees it. */
export interface PermissionCheckState {
  result: PermissionCheckResult | undefined;
  isLoading: boolean;
}

/**
 * Checks that the signed-in user is an admin holding every permission in `permissions` (cached 60 s,
 * 1 retry). A check that still fails is logged and reads as not admin.
 */
export function usePermissionCheck(permissions: readonly string[]): PermissionCheckState {
  const { data, error } = useRestField(
    PermissionCheckDocument,
    "permissionCheck",
    PERMISSION_CHECK_OPTIONS.staleTime,
    { permissions },
  );
  if (error) {
    return { result: notAdmin(`Failed to check permissions: ${error.message}`), isLoading: false };
  }
  return { result: data?.permissionCheck, isLoading: data === undefined };
}

// ---- the console's lookup by unique id ----

/**
 * Looks the console's user up by unique id once when the console opens for a real user (spec §7);
 * the answer, which carries esrtSynced, is only logged. A failure is logged as a warning, never shown.
 */
export function useLookupByUniqueIdOnce(uniqueId: string, enabled: boolean): void {
  const client = useApolloClient();
  const lookedUp = useRef<string | null>(null);
  useEffect(() => {
    if (!enabled || lookedUp.current === uniqueId) return;
    lookedUp.current = uniqueId;
    client.query({ query: UserByUniqueIdDocument, variables: { uniqueId }, fetchPolicy: "no-cache" }).then(
      ({ data }) => {
        const found = data?.userByUniqueId;
        if (found)
          console.info("ESRT Pro sync status", { uniqueId: found.uniqueId, esrtSynced: found.esrtSynced });
      },
      (error: unknown) => console.warn("Could not look the user up by unique id", error),
    );
  }, [uniqueId, enabled, client]);
}
