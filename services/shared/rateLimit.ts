import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from "rate-limiter-flexible";
import { AppError } from "./errors";
import { type RedisClient, withDeadline } from "./redis";

// Rate limits and growing delays kept in Redis, so that they hold across gateway instances (in the
// embedded mode, in this process's memory). Two kinds:
//  - a window rule: at most `points` attempts per `durationSec` for one key (an IP, an email);
//  - a backoff rule: after `free` consecutive failures of one key, each further attempt waits for a
//    delay that doubles (1 s, 2 s, 4 s...) up to `maxDelaySec`; a success clears it.
// Neither ever locks a key for good: windows end and delays are capped.
//
// Every attempt is counted before it is checked (OWASP ASVS 5.0), each count one atomic step of the
// store (rate-limiter-flexible's INCR script on Redis; a synchronous step in memory), so that
// attempts sent at once cannot all pass a check made before any of them was counted (issue 20:
// 60 concurrent wrong passwords let 8 through where 6 was the limit). What the caller learns was not
// a failure (a success, or a refusal by another limit) it gives back: `Reservation.release`, or
// `succeed` for the backoffs.

export interface WindowRule {
  points: number;
  durationSec: number;
}

export interface BackoffRule {
  /** failures allowed before delays start */
  free: number;
  /** longest delay */
  maxDelaySec: number;
  /** how long failures are remembered without a new one */
  memorySec: number;
}

/** The limits the identity surface applies; tests may shorten them. */
export interface RateLimitRules {
  /** failed sign-ins per IP; a used-up window refuses every attempt, right password or not */
  loginIp: WindowRule;
  /** failed sign-ins of one (account, IP) pair */
  loginAccount: BackoffRule;
  /** failed sign-ins of one account from anywhere (rotating IPs), looser so its owner gets through */
  loginAccountAny: BackoffRule;
  register: WindowRule;
  resetIp: WindowRule;
  resetEmail: WindowRule;
  verifyIp: WindowRule;
  securityAnswers: BackoffRule;
}

export const DEFAULT_RATE_LIMITS: RateLimitRules = {
  loginIp: { points: 100, durationSec: 15 * 60 },
  loginAccount: { free: 5, maxDelaySec: 15 * 60, memorySec: 24 * 60 * 60 },
  loginAccountAny: { free: 10, maxDelaySec: 60, memorySec: 24 * 60 * 60 },
  register: { points: 50, durationSec: 60 * 60 },
  resetIp: { points: 20, durationSec: 15 * 60 },
  resetEmail: { points: 3, durationSec: 15 * 60 },
  verifyIp: { points: 30, durationSec: 15 * 60 },
  securityAnswers: { free: 3, maxDelaySec: 15 * 60, memorySec: 24 * 60 * 60 },
};

type WindowName = {
  [K in keyof RateLimitRules]: RateLimitRules[K] extends WindowRule ? K : never;
}[keyof RateLimitRules];
type BackoffName = Exclude<keyof RateLimitRules, WindowName>;

/** Redis (or the memory store) failed: the request is answered 503 rather than let through or hung. */
function unavailable(cause: unknown): AppError {
  return new AppError("UNAVAILABLE", "Sign-in is temporarily unavailable. Please try again shortly.", {
    cause,
  });
}

/**
 * Runs a limiter call under a deadline (the library's MULTI blocks are not bounded by the Redis
 * client's command timeout), turning a store failure or a silent store into {@link unavailable}.
 */
async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await withDeadline(work);
  } catch (err) {
    if (err instanceof RateLimiterRes || err instanceof AppError) throw err;
    throw unavailable(err);
  }
}

/** The message and Retry-After of a refused attempt. */
export function rateLimited(retryAfterSec: number): AppError {
  const seconds = Math.max(1, Math.ceil(retryAfterSec));
  return new AppError(
    "RATE_LIMITED",
    `Too many attempts. Please try again in ${seconds} ${seconds === 1 ? "second" : "seconds"}.`,
    {
      details: { retryAfter: seconds },
    },
  );
}

/** One counted attempt, which the caller may give back when it turns out not to be a failure. */
export interface Reservation {
  /**
   * Gives the attempt back (it checked nothing, or it was no failure); at most once. Never throws:
   * when the store fails, the attempt stays counted (the safe side).
   */
  release(): Promise<void>;
}

export interface RateLimiter {
  /**
   * Counts one attempt of `key` under a window rule, before the work it guards; the answer gives it
   * back (a success that the window counts no more).
   * @throws AppError RATE_LIMITED (details.retryAfter) when the window is used up.
   */
  consume(rule: WindowName, key: string): Promise<Reservation>;
  /**
   * Counts one attempt of `key` under a backoff rule, before the work it guards: one of the free
   * attempts, or, past them, the one attempt each delay lets through, which starts the next, longer
   * delay at once. A refused attempt counts nothing. The answer gives the attempt back (it was not a
   * failure, e.g. another limit refused the request); `succeed` clears the key.
   * With `enforce: false` (the owner's known browser) the attempt is counted but never refused.
   * @throws AppError RATE_LIMITED (details.retryAfter) while the key waits out a delay.
   */
  reserve(rule: BackoffName, key: string, options?: { enforce?: boolean }): Promise<Reservation>;
  /** Clears the failures and delays of each (rule, key) (after a success), in one round trip. */
  succeed(...cleared: [rule: BackoffName, key: string][]): Promise<void>;
}

/** A reservation whose `undo` runs at most once. */
function reservation(undo: () => Promise<unknown>): Reservation {
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      await guarded(undo).catch(() => undefined);
    },
  };
}

/**
 * Takes the reservations of `attempts` together; when one is refused, gives back those taken and
 * throws its refusal (the longest Retry-After of the refusals).
 * @throws AppError RATE_LIMITED, UNAVAILABLE.
 */
export async function reserveAll(attempts: Promise<Reservation>[]): Promise<Reservation> {
  const settled = await Promise.allSettled(attempts);
  const taken = settled.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
  const refusals = settled.flatMap((s) => (s.status === "rejected" ? [s.reason as unknown] : []));
  const releaseAll = reservation(() => Promise.all(taken.map((r) => r.release())));
  if (refusals.length === 0) return releaseAll;
  await releaseAll.release();
  const retryAfter = (err: unknown) =>
    err instanceof AppError && err.code === "RATE_LIMITED" ? Number(err.details?.retryAfter ?? 0) : -1;
  throw refusals.reduce((worst, err) => (retryAfter(err) > retryAfter(worst) ? err : worst));
}

/**
 * Builds the rate limiter on Redis (node-redis v5 client) or, without one, in memory.
 * The Redis keys live under `${prefix}rl:`. `storedRules` (the admin's security settings, issue 12)
 * are read at each attempt and lie over the defaults; `rules` (tests) lie over both.
 */
export function createRateLimiter(options: {
  redis?: RedisClient;
  prefix: string;
  rules?: Partial<RateLimitRules>;
  storedRules?: () => Promise<Partial<RateLimitRules>>;
}): RateLimiter {
  const fixed: RateLimitRules = { ...DEFAULT_RATE_LIMITS, ...options.rules };
  const make = (name: string, points: number, duration: number): RateLimiterAbstract => {
    const keyPrefix = `${options.prefix}rl:${name}`;
    return options.redis
      ? new RateLimiterRedis({
          storeClient: options.redis,
          useRedisPackage: true,
          keyPrefix,
          points,
          duration,
        })
      : new RateLimiterMemory({ keyPrefix, points, duration });
  };
  // one limiter per rule and shape: a changed setting gets its own (same keys, new points or duration)
  const limiters = new Map<string, RateLimiterAbstract>();
  const limiter = (name: string, points: number, duration: number): RateLimiterAbstract => {
    const id = `${name}|${points}|${duration}`;
    let found = limiters.get(id);
    if (!found) {
      found = make(name, points, duration);
      limiters.set(id, found);
    }
    return found;
  };
  const current = async (): Promise<RateLimitRules> => {
    if (!options.storedRules) return fixed;
    // settings that cannot be read leave the defaults in force: never an unlimited sign-in
    const stored = await options.storedRules().catch(() => ({}));
    return { ...DEFAULT_RATE_LIMITS, ...stored, ...options.rules };
  };
  const window = async (name: WindowName) => {
    const rule = (await current())[name];
    return { rule, limiter: limiter(name, rule.points, rule.durationSec) };
  };
  // A backoff rule is three counters of the key: `fails` (attempts since the last success; the
  // first `free` pass), `block` (the gate: whoever creates it passes, and it stays shut for the
  // delay) and `steps` (delays served so far, which sets the next one).
  const backoff = async (name: BackoffName) => {
    const rule = (await current())[name];
    return {
      rule,
      fails: limiter(`${name}:fails`, rule.free, rule.memorySec),
      gate: limiter(`${name}:block`, 1, rule.maxDelaySec),
      steps: limiter(`${name}:steps`, 1_000_000, rule.memorySec),
    };
  };

  return {
    async consume(rule, key) {
      const { limiter: windowLimiter } = await window(rule);
      try {
        await guarded(() => windowLimiter.consume(key));
      } catch (err) {
        if (!(err instanceof RateLimiterRes)) throw err;
        // a refused attempt takes no place in the window: its count goes back at once
        await guarded(() => windowLimiter.reward(key));
        throw rateLimited(err.msBeforeNext / 1000);
      }
      return reservation(() => windowLimiter.reward(key));
    },
    async reserve(rule, key, reserveOptions = {}) {
      const { rule: limits, fails, gate, steps } = await backoff(rule);
      // one of the free attempts: INCR, refused past `free` (still counted, as every attempt is)
      const free = await guarded(() => fails.consume(key)).then(
        () => true,
        (err: unknown) => {
          if (err instanceof RateLimiterRes) return false;
          throw err;
        },
      );
      const giveBack = () => fails.reward(key);
      if (free || reserveOptions.enforce === false) return reservation(giveBack);
      // past them: the gate lets one attempt through per delay. Creating its key (SET NX inside the
      // INCR script) is the one step that decides, so attempts at once cannot both pass.
      try {
        await guarded(() => gate.consume(key, 1, { customDuration: 1 }));
      } catch (err) {
        if (!(err instanceof RateLimiterRes)) throw err;
        // refused: this attempt is not counted
        await guarded(giveBack);
        throw rateLimited(err.msBeforeNext / 1000);
      }
      // this attempt holds the gate: it sets the delay the next one waits (1 s, 2 s, 4 s... capped)
      const served = await guarded(() => steps.penalty(key, 1));
      const delay = Math.min(limits.maxDelaySec, 2 ** Math.min(served.consumedPoints - 1, 30));
      await guarded(() => gate.block(key, delay));
      return reservation(() => Promise.all([giveBack(), steps.reward(key), gate.delete(key)]));
    },
    async succeed(...cleared) {
      const resolved = await Promise.all(
        cleared.map(async ([rule, key]) => ({ key, ...(await backoff(rule)) })),
      );
      const redis = options.redis;
      if (redis) {
        const keys = resolved.flatMap(({ key, fails, gate, steps }) => [
          fails.getKey(key),
          gate.getKey(key),
          steps.getKey(key),
        ]);
        await guarded(() => redis.del(keys));
        return;
      }
      await guarded(() =>
        Promise.all(
          resolved.flatMap(({ key, fails, gate, steps }) => [
            fails.delete(key),
            gate.delete(key),
            steps.delete(key),
          ]),
        ),
      );
    },
  };
}
