import {
  checkIdle,
  IDLE_CHECK_INTERVAL_MS,
  IDLE_TIMEOUT_MS,
  IDLE_WARNING_MS,
  recordActivity,
  SERVER_CHECK_INTERVAL_MS,
  settleExpiryCheck,
  startIdleTimer,
} from "./idleTimer";

const MINUTE = 60_000;

/** Runs the 30-second check from `from` to `to` (ms after start) and collects what it asked for. */
function run(state: ReturnType<typeof startIdleTimer>, from: number, to: number, sharedActivityAt = 0) {
  const events: Array<[number, string]> = [];
  let current = state;
  for (let t = from; t <= to; t += IDLE_CHECK_INTERVAL_MS) {
    const checked = checkIdle(current, t, sharedActivityAt);
    current = checked.state;
    if (checked.event) events.push([t, checked.event]);
  }
  return { state: current, events };
}

describe("the session idle timer (spec §4, §9)", () => {
  it("uses the spec's constants", () => {
    expect([IDLE_TIMEOUT_MS, IDLE_WARNING_MS, IDLE_CHECK_INTERVAL_MS, SERVER_CHECK_INTERVAL_MS]).toEqual([
      30 * MINUTE,
      28 * MINUTE,
      30_000,
      15 * MINUTE,
    ]);
  });

  it("asks for nothing before 28 idle minutes", () => {
    expect(run(startIdleTimer(0), IDLE_CHECK_INTERVAL_MS, 28 * MINUTE - 1).events).toEqual([]);
  });

  it("warns once at 28 minutes and asks once, at 30, for the server check before expiring", () => {
    const { state, events } = run(startIdleTimer(0), IDLE_CHECK_INTERVAL_MS, 40 * MINUTE);
    expect(events).toEqual([
      [28 * MINUTE, "warn"],
      [30 * MINUTE, "check-expiry"],
    ]);
    expect(state.phase).toBe("checking");
  });

  it("starts again after activity, warning again after another 28 quiet minutes", () => {
    const warned = run(startIdleTimer(0), IDLE_CHECK_INTERVAL_MS, 29 * MINUTE);
    expect(warned.events).toEqual([[28 * MINUTE, "warn"]]);
    const active = recordActivity(warned.state, 29 * MINUTE + 10_000);
    expect(active.warned).toBe(false);
    const later = run(active, 29 * MINUTE + IDLE_CHECK_INTERVAL_MS, 60 * MINUTE);
    expect(later.events).toEqual([
      [57 * MINUTE + 30_000, "warn"],
      [59 * MINUTE + 30_000, "check-expiry"],
    ]);
  });

  it("counts activity another tab shared, so no warning comes while the user works there", () => {
    expect(run(startIdleTimer(0), 20 * MINUTE, 49 * MINUTE, 20 * MINUTE).events).toEqual([
      [48 * MINUTE, "warn"],
    ]);
  });
});

describe("the 30-minute expiry check (spec §4)", () => {
  const checking = () => checkIdle(startIdleTimer(0), 30 * MINUTE).state;

  it("ends the session when the server refuses the check, whatever activity there was", () => {
    const settled = settleExpiryCheck(checking(), "expired", 30 * MINUTE, 29 * MINUTE);
    expect(settled.expired).toBe(true);
    expect(settled.state.phase).toBe("expired");
  });

  it("ends the session when no tab saw activity for 30 minutes, even though the server answered", () => {
    expect(settleExpiryCheck(checking(), "active", 30 * MINUTE).expired).toBe(true);
    expect(settleExpiryCheck(checking(), "unknown", 30 * MINUTE).expired).toBe(true);
  });

  it("keeps the user signed in when the session is active and another tab was active meanwhile", () => {
    const settled = settleExpiryCheck(checking(), "active", 30 * MINUTE + 200, 30 * MINUTE + 100);
    expect(settled).toEqual({ expired: false, state: startIdleTimer(30 * MINUTE + 100) });
  });

  it("ignores a network error: recent activity keeps the user signed in", () => {
    expect(settleExpiryCheck(checking(), "unknown", 30 * MINUTE + 200, 30 * MINUTE + 100).expired).toBe(
      false,
    );
  });

  it("cannot be revived once expired", () => {
    const expired = settleExpiryCheck(checking(), "expired", 30 * MINUTE).state;
    expect(recordActivity(expired, 31 * MINUTE)).toBe(expired);
    expect(checkIdle(expired, 31 * MINUTE).event).toBeNull();
    expect(settleExpiryCheck(expired, "active", 31 * MINUTE, 31 * MINUTE).expired).toBe(true);
  });
});
