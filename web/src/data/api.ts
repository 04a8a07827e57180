/**
 * The REST data layer (spec §1, §7, §9). Every call sends the session cookie and asks for JSON; a
 * non-OK answer becomes an Error whose message is "<status>: <body text or status text>".
 *
 * These are the transport only: components never call them. Their answers reach components through
 * Apollo Client's one cache (./restLink serves the REST operations of ./rest, whose hooks components
 * use), so the spec's defaults (no retry, never stale, no refetch on focus, no polling) hold for REST
 * and GraphQL alike. Every answer's x-request-id is noted (./requestId) for the error screens.
 */

import { recordRequestId } from "./requestId";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** What a query function does when the server answers 401. */
export type UnauthorizedBehavior = "returnNull" | "throw";

/**
 * Throws when a response is not OK, with the spec's message format.
 * @throws Error `${status}: ${bodyText || statusText}`
 */
export async function throwIfResNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const text = (await res.text().catch(() => "")) || res.statusText;
  throw new Error(`${res.status}: ${text}`);
}

/**
 * Reads and drops the body of an answer whose content the caller does not need (a 401 meaning
 * "signed out", a logout). A body left unread keeps the request open in the browser, so the page
 * never goes network-idle; reading it lets the request finish. Never throws.
 */
export async function discardBody(res: Response): Promise<void> {
  if (res.bodyUsed || res.body === null) return;
  await res.arrayBuffer().catch(() => undefined);
}

/**
 * Sends one REST request with cookies, `Accept: application/json` and, when `body` is given, a JSON
 * body. Resolves with the response so callers choose whether to read it.
 * @throws Error `${status}: ${bodyText || statusText}` for a non-OK answer; TypeError on network failure.
 */
export async function apiRequest(method: HttpMethod, path: string, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "include",
  });
  recordRequestId(res);
  await throwIfResNotOk(res);
  return res;
}

/**
 * Makes a query function for GET endpoints: it fetches `path` with cookies and parses the JSON answer.
 * With `on401: "returnNull"` a 401 resolves to null (for "who am I" style queries); otherwise the
 * function throws like apiRequest.
 * @throws Error `${status}: ${bodyText || statusText}` from the returned function.
 */
export function getQueryFn<T>(options: { on401: UnauthorizedBehavior }): (path: string) => Promise<T | null> {
  return async (path: string) => {
    const res = await fetch(path, { credentials: "include", headers: { Accept: "application/json" } });
    recordRequestId(res);
    if (options.on401 === "returnNull" && res.status === 401) {
      await discardBody(res);
      return null;
    }
    await throwIfResNotOk(res);
    return (await res.json()) as T;
  };
}
