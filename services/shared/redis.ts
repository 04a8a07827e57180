import { createClient } from "redis";
import { config } from "./config";
import { logger } from "./logger";
import { redactUrl } from "./net";
import { withTimeout } from "./timeout";

/** A connected node-redis v5 client as the portal uses it (sessions, rate limits, caches). */
export type RedisClient = ReturnType<typeof createClient>;

/** Options of {@link connectRedis} and {@link createRedisClient}. */
export interface RedisOptions {
  /** How long the first connection may take before connectRedis gives up (default 5000 ms). */
  initialConnectTimeoutMs?: number;
  /** Longest pause between two reconnection attempts (default {@link REDIS_MAX_BACKOFF_MS}). */
  maxBackoffMs?: number;
  /** How long one command may wait for its answer (default {@link redisTimeoutMs}). */
  commandTimeoutMs?: number;
}

/** Calls of the client that manage its connection: never put under a command's deadline. */
const CONNECTION_CALLS = new Set<PropertyKey>(["connect", "quit", "close", "disconnect", "destroy"]);

/**
 * The client with every command it answers with a promise put under a deadline of `ms`. node-redis's
 * own command timeout stops counting once a command is written, so a Redis that is frozen (SIGSTOP,
 * a partition) with its connection open would leave callers waiting forever. A command that misses
 * its deadline is abandoned; its late answer, if one comes, is dropped by the client. MULTI blocks
 * return a builder, not a promise: wrap their exec() in {@link withDeadline}.
 */
function withCommandDeadlines(client: RedisClient, ms: number): RedisClient {
  return new Proxy(client, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== "function" || CONNECTION_CALLS.has(property)) return value;
      return (...args: unknown[]) => {
        const result: unknown = Reflect.apply(value, target, args);
        return result instanceof Promise ? withDeadline(() => result, ms) : result;
      };
    },
  });
}

/**
 * How long one Redis command may wait for its answer by default (REDIS_TIMEOUT_MS sets it). A frozen
 * or partitioned Redis keeps its connection open and answers nothing: without a bound, every request
 * that needs it would hang.
 */
export const REDIS_COMMAND_TIMEOUT_MS = 500;

/** The deadline of one Redis command in force: REDIS_TIMEOUT_MS. */
export function redisTimeoutMs(): number {
  return config().REDIS_TIMEOUT_MS;
}

/**
 * Longest pause between two reconnection attempts. Short, so that the portal is back within a
 * moment of Redis; an attempt against a refused port costs next to nothing.
 */
export const REDIS_MAX_BACKOFF_MS = 200;

/** Most commands waiting at once; beyond it a command fails at once rather than piling up. */
export const REDIS_MAX_QUEUED_COMMANDS = 5000;

const log = () => logger("redis");

/**
 * Delay before reconnection attempt `retries` (0-based): exponential from 50 ms, capped, with a
 * little jitter so that many processes do not reconnect in lock step. Never gives up.
 */
export function reconnectDelay(retries: number, maxBackoffMs = REDIS_MAX_BACKOFF_MS): number {
  const base = Math.min(maxBackoffMs, 50 * 2 ** Math.min(retries, 16));
  return Math.round(base * (0.8 + Math.random() * 0.2));
}

/**
 * Builds a node-redis client that is not connected yet: 1 s connect timeout, quick capped
 * reconnects forever, errors logged (never thrown as unhandled 'error' events), no offline queue (a
 * command issued while Redis is away fails at once instead of hanging) and a deadline on every
 * command (a frozen Redis fails a command after {@link redisTimeoutMs}). MULTI blocks are
 * not bounded by the client: wrap their exec() in {@link withDeadline}.
 */
export function createRedisClient(url: string, options: RedisOptions = {}): RedisClient {
  const maxBackoffMs = options.maxBackoffMs ?? REDIS_MAX_BACKOFF_MS;
  const client = createClient({
    url,
    disableOfflineQueue: true,
    commandsQueueMaxLength: REDIS_MAX_QUEUED_COMMANDS,
    socket: {
      connectTimeout: 1000,
      reconnectStrategy: (retries: number) => reconnectDelay(retries, maxBackoffMs),
    },
  });
  let lastLogged = 0;
  client.on("error", (err: unknown) => {
    // Reconnection loops raise one error per attempt: log at most one every 5 s.
    const now = Date.now();
    if (now - lastLogged < 5000) return;
    lastLogged = now;
    log().warn({ err: err instanceof Error ? err.message : String(err) }, "redis connection error");
  });
  client.on("ready", () => log().debug("redis ready"));
  return withCommandDeadlines(client, options.commandTimeoutMs ?? redisTimeoutMs());
}

/**
 * Connects to Redis at `url` and resolves once the client is ready. After that the client reconnects
 * on its own for as long as the process lives.
 * @throws Error when the first connection does not succeed within `initialConnectTimeoutMs`.
 */
export async function connectRedis(url: string, options: RedisOptions = {}): Promise<RedisClient> {
  const client = createRedisClient(url, options);
  const timeoutMs = options.initialConnectTimeoutMs ?? 5000;
  try {
    await withTimeout(client.connect(), timeoutMs, `Redis at ${redactUrl(url)}`);
    return client;
  } catch (err) {
    client.destroy();
    throw err;
  }
}

/**
 * The readiness check of a Redis client: refuses at once while it is disconnected, else PINGs it.
 * @throws Error when Redis is not connected or does not answer.
 */
export async function pingRedis(client: RedisClient): Promise<void> {
  if (!client.isReady) throw new Error("not connected");
  await client.ping();
}

/** Raised when Redis work does not finish within its deadline. */
export class RedisTimeoutError extends Error {
  constructor(ms: number) {
    super(`Redis did not answer within ${ms} ms`);
    this.name = "RedisTimeoutError";
  }
}

/**
 * Runs Redis work that the client's command timeout does not cover (MULTI blocks, library calls made
 * of several commands) under a deadline.
 * @throws RedisTimeoutError after `ms`; whatever the work throws before.
 */
export function withDeadline<T>(work: () => Promise<T>, ms = redisTimeoutMs()): Promise<T> {
  // One promise settled by whichever comes first (no async frame, no race of two more promises): it
  // runs on every Redis command of every request.
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    // A stalled event loop (a long synchronous task, a GC pause, a starved CPU) fires the timer late,
    // in the same turn that would read an answer already waiting on the socket: the check waits for
    // that turn's I/O (setImmediate), and a timer that fired late by half its time or more is given
    // one more period, so only a store that stays silent while this process runs trips it.
    const arm = (rearmsLeft: number) => {
      const due = Date.now() + ms;
      timer = setTimeout(() => {
        setImmediate(() => {
          if (settled) return;
          if (rearmsLeft > 0 && Date.now() - due >= ms / 2) return arm(rearmsLeft - 1);
          settled = true;
          reject(new RedisTimeoutError(ms));
        });
      }, ms);
    };
    arm(1);
    const finish = () => {
      settled = true;
      clearTimeout(timer);
    };
    let running: Promise<T>;
    try {
      running = work();
    } catch (err) {
      finish();
      reject(err);
      return;
    }
    running.then(
      (value) => {
        if (settled) return;
        finish();
        resolve(value);
      },
      (err: unknown) => {
        if (settled) return;
        finish();
        reject(err);
      },
    );
  });
}

/**
 * Waits until a reconnecting client is ready again, for at most `ms`; answers whether it is. A
 * request that needs Redis gives a client that is reconnecting this short grace, so that the first
 * request after Redis returns succeeds instead of being refused by a client still in its backoff.
 */
export async function readyWithin(client: RedisClient, ms: number): Promise<boolean> {
  if (client.isReady) return true;
  if (!client.isOpen) return false;
  return new Promise<boolean>((resolve) => {
    const done = (ready: boolean) => {
      clearTimeout(timer);
      client.off("ready", onReady);
      resolve(ready);
    };
    const onReady = () => done(true);
    const timer = setTimeout(() => done(client.isReady), ms);
    client.on("ready", onReady);
  });
}
