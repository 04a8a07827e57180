// The session idle timer of spec §4/§9 as a pure state machine; lib/sessionTracking.ts drives it
// with the browser's clock and events, the activity other tabs share, and GET /api/session-check.

/** Idle session timeout: 30 minutes. */
export const IDLE_TIMEOUT_MS = 30 * 60 * 1000;
/** The warning shows 2 minutes before expiry, at 28 minutes. */
export const IDLE_WARNING_MS = 28 * 60 * 1000;
/** The idle check runs every 30 seconds. */
export const IDLE_CHECK_INTERVAL_MS = 30 * 1000;
/** The server session is checked every 15 minutes. */
export const SERVER_CHECK_INTERVAL_MS = 15 * 60 * 1000;

/** Where the idle timer stands: counting, waiting for the expiry check's answer, or expired. */
export type IdlePhase = "counting" | "checking" | "expired";

/** The idle timer's state. */
export interface IdleState {
  /** epoch milliseconds of the last activity (in this tab or, once seen, another tab) */
  lastActivityAt: number;
  /** the warning has been shown since the last activity */
  warned: boolean;
  phase: IdlePhase;
}

/** What an idle check asks the app to do: warn, or check the server session before expiring. */
export type IdleEvent = "warn" | "check-expiry" | null;

/** What GET /api/session-check said: still signed in, refused, or nothing (network error). */
export type SessionCheckOutcome = "active" | "expired" | "unknown";

/** A fresh timer started at `now`. */
export function startIdleTimer(now: number): IdleState {
  return { lastActivityAt: now, warned: false, phase: "counting" };
}

/**
 * Activity at `now` resets the timer (and the warning), unless the session expired. Activity older
 * than the last one recorded changes nothing.
 */
export function recordActivity(state: IdleState, now: number): IdleState {
  if (state.phase === "expired" || now <= state.lastActivityAt) return state;
  return { lastActivityAt: now, warned: false, phase: "counting" };
}

/**
 * The check run every 30 seconds. Activity another tab shared (`sharedActivityAt`, epoch ms, 0 when
 * none) counts as activity here. Asks for 'check-expiry' once 30 minutes passed without activity
 * (then waits for {@link settleExpiryCheck}), 'warn' once per idle stretch after 28 minutes,
 * otherwise nothing.
 */
export function checkIdle(
  state: IdleState,
  now: number,
  sharedActivityAt = 0,
): { state: IdleState; event: IdleEvent } {
  if (state.phase !== "counting") return { state, event: null };
  const current = recordActivity(state, sharedActivityAt);
  const idle = now - current.lastActivityAt;
  if (idle >= IDLE_TIMEOUT_MS) return { state: { ...current, phase: "checking" }, event: "check-expiry" };
  if (idle >= IDLE_WARNING_MS && !current.warned) {
    return { state: { ...current, warned: true }, event: "warn" };
  }
  return { state: current, event: null };
}

/**
 * The 30-minute step once GET /api/session-check answered. A refused check ends the session. An
 * active session (or a network error, which is ignored) keeps the user signed in only when there
 * was activity within 30 minutes, in another tab or meanwhile in this one: the timer then starts
 * from that activity. Otherwise the idle timeout stands: a 200 alone does not show that the person
 * was active (another tab's requests keep the server session alive).
 */
export function settleExpiryCheck(
  state: IdleState,
  outcome: SessionCheckOutcome,
  now: number,
  sharedActivityAt = 0,
): { state: IdleState; expired: boolean } {
  if (state.phase === "expired") return { state, expired: true };
  const expiredState: IdleState = { ...state, phase: "expired" };
  if (outcome === "expired") return { state: expiredState, expired: true };
  const latest = Math.max(state.lastActivityAt, sharedActivityAt);
  if (now - latest < IDLE_TIMEOUT_MS) return { state: startIdleTimer(latest), expired: false };
  return { state: expiredState, expired: true };
}
