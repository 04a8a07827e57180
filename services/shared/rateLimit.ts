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
  const backoff = async (name: BackoffName) => {
    const rule = (await current())[name];
    return {
      rule,
      failures: limiter(`${name}:fails`, 1_000_000, rule.memorySec),
      blocks: limiter(`${name}:block`, 1, rule.maxDelaySec),
    };
  };

  return {
    async consume(rule, key) {
      const { limiter: windowLimiter } = await window(rule);
      try {
        await guarded(() => windowLimiter.consume(key));
      } catch (err) {
        if (err instanceof RateLimiterRes) throw rateLimited(err.msBeforeNext / 1000);
        throw err;
      }
    },
    async check(rule, key) {
      const { rule: limits, limiter: windowLimiter } = await window(rule);
      const res = await guarded(() => windowLimiter.get(key));
      if (res && res.consumedPoints >= limits.points && res.msBeforeNext > 0) {
        throw rateLimited(res.msBeforeNext / 1000);
      }
    },
    async checkBackoff(rule, key) {
      const { blocks } = await backoff(rule);
      const res = await guarded(() => blocks.get(key));
      if (res && res.consumedPoints > 1 && res.msBeforeNext > 0) throw rateLimited(res.msBeforeNext / 1000);
    },
    async fail(rule, key) {
      const { rule: limits, failures, blocks } = await backoff(rule);
      const res = await guarded(() => failures.penalty(key, 1));
      const over = res.consumedPoints - limits.free;
      if (over > 0) {
        const delay = Math.min(limits.maxDelaySec, 2 ** Math.min(over - 1, 30));
        await guarded(() => blocks.block(key, delay));
      }
    },
    async succeed(...cleared) {
      const resolved = await Promise.all(
        cleared.map(async ([rule, key]) => ({ key, ...(await backoff(rule)) })),
      );
      const redis = options.redis;
      if (redis) {
        const keys = resolved.flatMap(({ key, failures, blocks }) => [
          failures.getKey(key),
          blocks.getKey(key),
        ]);
        await guarded(() => redis.del(keys));
        return;
      }
      await guarded(() =>
        Promise.all(
          resolved.flatMap(({ key, failures, blocks }) => [failures.delete(key), blocks.delete(key)]),
        ),
      );
    },
  };
}
