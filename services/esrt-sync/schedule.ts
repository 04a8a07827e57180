// When a failed webhook delivery is tried again: the Standard Webhooks retry schedule (the same as
// Svix's), with jitter, scaled by ESRT_RETRY_SCALE (tests compress it), and a receiver's Retry-After.

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * The delay before each attempt: immediately, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h
 * and 24 h after the attempt before. Ten attempts in all; after the last the delivery is dead.
 */
export const RETRY_SCHEDULE_MS: readonly number[] = [
  0,
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  14 * HOUR,
  20 * HOUR,
  24 * HOUR,
];

/** Attempts a delivery gets before it is a dead letter. */
export const MAX_ATTEMPTS = RETRY_SCHEDULE_MS.length;

/** The longest Retry-After honoured (a receiver asking for more is retried after a day). */
export const MAX_RETRY_AFTER_MS = 24 * HOUR;

/**
 * The delay before the attempt after `attempts` failed ones, or null when none is left. The delay is
 * the schedule's, times `scale`, with ±20 % jitter (`random` in [0, 1)), so retries of many
 * deliveries failed together spread out.
 */
export function retryDelayMs(
  attempts: number,
  scale: number,
  random: () => number = Math.random,
): number | null {
  if (attempts >= MAX_ATTEMPTS) return null;
  const base = (RETRY_SCHEDULE_MS[attempts] ?? 0) * scale;
  return Math.round(base * (0.8 + 0.4 * random()));
}

/**
 * A Retry-After header's delay in ms (delta-seconds or an HTTP date, RFC 9110 §10.2.3), capped at a
 * day; null when absent or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Math.min(Number(trimmed) * SECOND, MAX_RETRY_AFTER_MS);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return null;
  return Math.min(Math.max(at - now, 0), MAX_RETRY_AFTER_MS);
}
