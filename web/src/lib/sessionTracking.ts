import { signOutLocally } from "@web/data/rest";
import { checkServerSession, renewServerSession, sendExpiredLogout } from "@web/data/session";
import { useEffect, useRef } from "react";
import { useNavigate } from "react-router-dom";
import {
  checkIdle,
  IDLE_CHECK_INTERVAL_MS,
  IDLE_WARNING_MS,
  type IdleState,
  recordActivity,
  SERVER_CHECK_INTERVAL_MS,
  settleExpiryCheck,
  startIdleTimer,
} from "./idleTimer";
import { showToast } from "./toast";

/** Activity that resets the idle timer (spec §4). */
export const ACTIVITY_EVENTS = ["mousedown", "mousemove", "keypress", "scroll", "touchstart"] as const;

/** The clock the tracker reads and schedules with; tests may pass their own. */
export interface SessionClock {
  now(): number;
  setInterval(callback: () => void, ms: number): number;
  clearInterval(id: number): void;
}

/** The browser's clock (which Playwright's page.clock replaces in browser tests). */
export const browserClock: SessionClock = {
  now: () => Date.now(),
  setInterval: (callback, ms) => window.setInterval(callback, ms),
  clearInterval: (id) => window.clearInterval(id),
};

export type { SessionCheckOutcome } from "./idleTimer";

/** Where the tabs of this browser share their latest activity (epoch ms), so one tab's work counts in all. */
export const SHARED_ACTIVITY_KEY = "portal.lastActivityAt";

/** Activity is written for other tabs at most once a second. */
const SHARE_EVERY_MS = 1000;

/** The latest activity another tab (or this one) shared, epoch ms; 0 when none or unreadable. */
export function readSharedActivity(storage: Pick<Storage, "getItem"> | null = safeStorage()): number {
  const value = Number(storage?.getItem(SHARED_ACTIVITY_KEY) ?? 0);
  return Number.isFinite(value) && value > 0 ? value : 0;
}

function safeStorage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    return null;
  }
}

function shareActivity(at: number): void {
  try {
    const storage = safeStorage();
    if (storage && readSharedActivity(storage) < at) storage.setItem(SHARED_ACTIVITY_KEY, String(at));
  } catch {
    // Storage full or refused: this tab's timer still works on its own.
  }
}

/** Props of the session tracker. */
export interface SessionTrackingProps {
  /** track only while a user is signed in */
  enabled: boolean;
  clock?: SessionClock;
}

/**
 * Session idle tracking (spec §4, §9): activity (here or in another tab) resets the timer; a check
 * every 30 s warns at 28 minutes ('Session Expiring Soon'); at 30 minutes the expiry check asks
 * GET /api/session-check first, and the session ends when the server refuses it or when no tab saw
 * activity for 30 minutes (settleExpiryCheck); the server session is also checked every 15 minutes.
 * Expiry clears the cached user, shows 'Session Expired', logs out and goes to /auth.
 */
export function useSessionTracking({ enabled, clock = browserClock }: SessionTrackingProps): void {
  const navigate = useNavigate();
  const navigateRef = useRef(navigate);
  navigateRef.current = navigate;

  useEffect(() => {
    if (!enabled) return;
    let state: IdleState = startIdleTimer(clock.now());
    let ended = false;
    let sharedAt = 0;

    const noteActivity = () => {
      const now = clock.now();
      state = recordActivity(state, now);
      if (now - sharedAt < SHARE_EVERY_MS) return;
      sharedAt = now;
      shareActivity(now);
    };

    const expire = () => {
      if (ended) return;
      ended = true;
      signOutLocally();
      showToast({
        title: "Session Expired",
        description: "Your session has expired. Please log in again.",
        intent: "destructive",
      });
      void sendExpiredLogout();
      navigateRef.current("/auth", { replace: true });
    };

    const handleStaySignedIn = async () => {
      noteActivity();
      const outcome = await renewServerSession();
      if (outcome === "expired") expire();
      else showToast({ title: "Session Active", description: "Your session has been extended." });
    };

    const handleActivity = () => noteActivity();

    const handleExpiryCheck = async () => {
      const outcome = await checkServerSession();
      if (ended) return;
      const settled = settleExpiryCheck(state, outcome, clock.now(), readSharedActivity());
      state = settled.state;
      if (settled.expired) expire();
    };

    const idleTimer = clock.setInterval(() => {
      const checked = checkIdle(state, clock.now(), readSharedActivity());
      state = checked.state;
      if (checked.event === "check-expiry") void handleExpiryCheck();
      if (checked.event === "warn") {
        showToast({
          title: "Session Expiring Soon",
          description: "Your session will expire in 2 minutes due to inactivity.",
          intent: "warning",
          action: { text: "Stay signed in", onClick: () => void handleStaySignedIn() },
        });
      }
    }, IDLE_CHECK_INTERVAL_MS);

    // Every 15 minutes: renew the server session when the person was active since the last check
    // (here or in another tab), else only check it.
    let lastServerCheckAt = clock.now();
    const serverTimer = clock.setInterval(() => {
      const lastActivityAt = Math.max(state.lastActivityAt, readSharedActivity());
      const activeSince = lastActivityAt > lastServerCheckAt;
      lastServerCheckAt = clock.now();
      // past the warning, the expiry check asks the server itself: a second check falling due with it
      // could reach the server after the expiry's logout and be refused
      if (!activeSince && clock.now() - lastActivityAt >= IDLE_WARNING_MS) return;
      void (activeSince ? renewServerSession() : checkServerSession()).then((outcome) => {
        if (outcome === "expired") expire();
      });
    }, SERVER_CHECK_INTERVAL_MS);

    for (const name of ACTIVITY_EVENTS) {
      document.addEventListener(name, handleActivity, { capture: true, passive: true });
    }
    return () => {
      ended = true;
      clock.clearInterval(idleTimer);
      clock.clearInterval(serverTimer);
      for (const name of ACTIVITY_EVENTS)
        document.removeEventListener(name, handleActivity, { capture: true });
    };
  }, [enabled, clock]);
}
