import { MAX_ATTEMPTS, parseRetryAfter, RETRY_SCHEDULE_MS, retryDelayMs } from "./schedule";

describe("the webhook retry schedule", () => {
  it("is the Standard Webhooks schedule: immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h", () => {
    const h = 3_600_000;
    expect(RETRY_SCHEDULE_MS).toEqual([
      0,
      5000,
      300_000,
      1_800_000,
      2 * h,
      5 * h,
      10 * h,
      14 * h,
      20 * h,
      24 * h,
    ]);
    expect(MAX_ATTEMPTS).toBe(10);
  });

  it("waits the next step after each failed attempt, within ±20 % jitter, scaled; none after the tenth", () => {
    expect(retryDelayMs(1, 1, () => 0.5)).toBe(5000);
    expect(retryDelayMs(1, 1, () => 0)).toBe(4000);
    expect(retryDelayMs(2, 1, () => 0.999_999)).toBeCloseTo(360_000, -1);
    expect(retryDelayMs(9, 0.001, () => 0.5)).toBe(86_400);
    expect(retryDelayMs(10, 1)).toBeNull();
  });

  it("reads Retry-After as seconds or an HTTP date, capped at a day", () => {
    const now = Date.parse("2026-11-25T10:00:00Z");
    expect(parseRetryAfter("120", now)).toBe(120_000);
    expect(parseRetryAfter("Wed, 25 Nov 2026 10:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter("Wed, 25 Nov 2026 09:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("999999", now)).toBe(86_400_000);
    expect(parseRetryAfter("soon", now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });
});
