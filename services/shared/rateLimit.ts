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
//  - a backoff rule: after `free` consecutive failures of one key, each further failure blocks the
//    key for a delay that doubles (1 s, 2 s, 4 s...) up to `maxDelaySec`; a success clears it.
// Neither ever locks a key for good: windows end and delays are capped.

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

export interface RateLimiter {
  /**
   * Counts one attempt of `key` under a window rule.
   * @throws AppError RATE_LIMITED (details.retryAfter) when the window is used up.
   */
  consume(rule: WindowName, key: string): Promise<void>;
  /**
   * Refuses a key whose window is used up, without counting anything.
   * @throws AppError RATE_LIMITED (details.retryAfter) while the window lasts.
   */
  check(rule: WindowName, key: string): Promise<void>;
  /**
   * Refuses a key that is serving a backoff delay, without counting anything.
   * @throws AppError RATE_LIMITED (details.retryAfter) while the delay lasts.
   */
  checkBackoff(rule: BackoffName, key: string): Promise<void>;
  /** Records a failure of `key`; past the free failures it starts (or doubles) the delay. */
  fail(rule: BackoffName, key: string): Promise<void>;
  /** Clears the failures and delays of each (rule, key) (after a success), in one round trip. */
  succeed(...cleared: [rule: BackoffName, key: string][]): Promise<void>;
}

/**
 * Builds the rate limiter on Redis (node-redis v5 client) or, without one, in memory.
 * The Redis keys live under `${prefix}rl:`.
 */
export function createRateLimiter(options: {
  redis?: RedisClient;
  prefix: string;
  rules?: Partial<RateLimitRules>;
}): RateLimiter {
  const rules: RateLimitRules = { ...DEFAULT_RATE_LIMITS, ...options.rules };
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
  const windows = new Map<WindowName, RateLimiterAbstract>();
  const failures = new Map<BackoffName, RateLimiterAbstract>();
  const blocks = new Map<BackoffName, RateLimiterAbstract>();
  for (const name of ["loginIp", "register", "resetIp", "resetEmail", "verifyIp"] as const) {
    const rule = rules[name];
    windows.set(name, make(name, rule.points, rule.durationSec));
  }
  for (const name of ["loginAccount", "loginAccountAny", "securityAnswers"] as const) {
    const rule = rules[name];
    failures.set(name, make(`${name}:fails`, 1_000_000, rule.memorySec));
    blocks.set(name, make(`${name}:block`, 1, rule.maxDelaySec));
  }
  const get = <K>(map: Map<K, RateLimiterAbstract>, name: K): RateLimiterAbstract => {
    const limiter = map.get(name);
    if (!limiter) throw new Error(`no rate limit rule ${String(name)}`);
    return limiter;
  };

  return {
    async consume(rule, key) {
      try {
        await guarded(() => get(windows, rule).consume(key));
      } catch (err) {
        if (err instanceof RateLimiterRes) throw rateLimited(err.msBeforeNext / 1000);
        throw err;
      }
    },
    async check(rule, key) {
      const res = await guarded(() => get(windows, rule).get(key));
      if (res && res.consumedPoints >= rules[rule].points && res.msBeforeNext > 0) {
        throw rateLimited(res.msBeforeNext / 1000);
      }
    },
    async checkBackoff(rule, key) {
      const res = await guarded(() => get(blocks, rule).get(key));
      if (res && res.consumedPoints > 1 && res.msBeforeNext > 0) throw rateLimited(res.msBeforeNext / 1000);
    },
    async fail(rule, key) {
      const { free, maxDelaySec } = rules[rule];
      const res = await guarded(() => get(failures, rule).penalty(key, 1));
      const over = res.consumedPoints - free;
      if (over > 0) {
        const delay = Math.min(maxDelaySec, 2 ** Math.min(over - 1, 30));
        await guarded(() => get(blocks, rule).block(key, delay));
      }
    },
    async succeed(...cleared) {
      const redis = options.redis;
      if (redis) {
        const keys = cleared.flatMap(([rule, key]) => [
          get(failures, rule).getKey(key),
          get(blocks, rule).getKey(key),
        ]);
        await guarded(() => redis.del(keys));
        return;
      }
      await guarded(() =>
        Promise.all(
          cleared.flatMap(([rule, key]) => [get(failures, rule).delete(key), get(blocks, rule).delete(key)]),
        ),
      );
    },
  };
}
