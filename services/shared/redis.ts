import { createClient } from "redis";
import { logger } from "./logger";
import { redactUrl } from "./net";

/** A connected node-redis v5 client as the portal uses it (sessions, rate limits, caches). */
export type RedisClient = ReturnType<typeof createClient>;

/** Options of {@link connectRedis} and {@link createRedisClient}. */
export interface RedisOptions {
  /** How long the first connection may take before connectRedis gives up (default 5000 ms). */
  initialConnectTimeoutMs?: number;
  /** Longest pause between two reconnection attempts (default 5000 ms). */
  maxBackoffMs?: number;
}

const log = () => logger("redis");

/**
 * Delay before reconnection attempt `retries` (0-based): exponential from 100 ms, capped, with a
 * little jitter so that many processes do not reconnect in lock step. Never gives up.
 */
export function reconnectDelay(retries: number, maxBackoffMs = 5000): number {
  const base = Math.min(maxBackoffMs, 100 * 2 ** Math.min(retries, 16));
  return Math.round(base * (0.8 + Math.random() * 0.2));
}

/**
 * Builds a node-redis client that is not connected yet: 3 s connect timeout, capped exponential
 * reconnects forever, errors logged (never thrown as unhandled 'error' events) and no offline queue,
 * so a command issued while Redis is away fails at once instead of hanging.
 */
export function createRedisClient(url: string, options: RedisOptions = {}): RedisClient {
  const maxBackoffMs = options.maxBackoffMs ?? 5000;
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: 3000,
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
  return client;
}

/**
 * Connects to Redis at `url` and resolves once the client is ready. After that the client reconnects
 * on its own for as long as the process lives.
 * @throws Error when the first connection does not succeed within `initialConnectTimeoutMs`.
 */
export async function connectRedis(url: string, options: RedisOptions = {}): Promise<RedisClient> {
  const client = createRedisClient(url, options);
  const timeoutMs = options.initialConnectTimeoutMs ?? 5000;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`Redis at ${redactUrl(url)} did not answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  try {
    await Promise.race([client.connect(), timeout]);
    return client;
  } catch (err) {
    client.destroy();
    throw err;
  } finally {
    clearTimeout(timer);
  }
}
