import { type RedisClient, readyWithin } from "@services/shared/redis";
import type { NextFunction, Request, RequestHandler, Response } from "express";

/**
 * How long a request that may need Redis waits for a reconnecting client. Longer than the client's
 * longest reconnection pause (services/shared/redis.ts), so a request made just after Redis returns
 * finds it connected; short enough that a request during an outage is still refused within a second.
 */
export const REDIS_GRACE_MS = 350;

/**
 * Gives a reconnecting Redis client a short grace before the request goes on. Never refuses anything
 * itself: when Redis is still away, the request's own Redis calls fail at once (503), and a request
 * that needs no Redis is answered as usual.
 */
export function redisGrace(client: RedisClient, graceMs = REDIS_GRACE_MS): RequestHandler {
  return (_req: Request, _res: Response, next: NextFunction) => {
    if (client.isReady) {
      next();
      return;
    }
    void readyWithin(client, graceMs).then(() => next());
  };
}
