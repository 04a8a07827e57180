/**
 * The session calls of the idle tracker (spec §4, §9): the server session's check, its renewal and
 * the logout sent when it expired. Transport only, like ./api: lib/sessionTracking decides when.
 */

import type { SessionCheckOutcome } from "@web/lib/idleTimer";
import { discardBody } from "./api";

/**
 * Asks `path` with caching disabled; the body is read and dropped, never used. A non-OK answer means
 * the session is gone; a network error is ignored ('unknown', treated as valid).
 */
async function askSession(path: string, fetchImpl: typeof fetch): Promise<SessionCheckOutcome> {
  try {
    const res = await fetchImpl(path, {
      credentials: "include",
      cache: "no-store",
      headers: { Accept: "application/json" },
    });
    await discardBody(res);
    return outcomeOf(res.status);
  } catch {
    return "unknown";
  }
}

/**
 * GET /api/session-check: whether the server session still stands, without renewing it. Never
 * throws: a network error is 'unknown'.
 */
export function checkServerSession(fetchImpl: typeof fetch = fetch): Promise<SessionCheckOutcome> {
  return askSession("/api/session-check", fetchImpl);
}

/**
 * GET /api/user, which renews the rolling server session (session-check does not): sent when the
 * person was active, so the server's 30-minute idle clock follows their activity, not page loads.
 * Never throws: a network error is 'unknown'.
 */
export function renewServerSession(fetchImpl: typeof fetch = fetch): Promise<SessionCheckOutcome> {
  return askSession("/api/user", fetchImpl);
}

/**
 * A refusal (401/403) means the session is gone; a server error (5xx, e.g. Redis briefly away) is
 * treated like a network error: nothing is known, and the idle rule alone decides.
 */
export function outcomeOf(status: number): SessionCheckOutcome {
  if (status >= 200 && status < 300) return "active";
  if (status >= 500) return "unknown";
  return "expired";
}

/**
 * POST /api/logout for a session that expired, sent with `keepalive` so it finishes even if the tab
 * closes right after; the answer is read and dropped. Never throws.
 */
export function sendExpiredLogout(fetchImpl: typeof fetch = fetch): Promise<void> {
  return fetchImpl("/api/logout", {
    method: "POST",
    credentials: "include",
    keepalive: true,
    headers: { Accept: "application/json" },
  })
    .then(discardBody)
    .catch(() => undefined);
}
