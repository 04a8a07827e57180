import { SESSION_ABSOLUTE_MS } from "@gateway/http/session";
import type { RedisClient } from "@services/shared/redis";
import type { Store } from "express-session";

/**
 * Which sessions each user holds, so that a password, status or type change can end the user's
 * other sessions: a Redis set `${prefix}user-sessions:<userId>` per user (or a map in memory for the
 * embedded mode, whose sessions are in memory too).
 */
export interface SessionIndex {
  add(userId: number, sid: string): Promise<void>;
  remove(userId: number, sid: string): Promise<void>;
  /** The session ids indexed for `userId` (some may have idled out since). @throws when Redis fails. */
  list(userId: number): Promise<string[]>;
  /**
   * Destroys the session `sid` of `userId` in `store` and drops it from the index.
   * @throws when the store or Redis fails.
   */
  revoke(props: { store: Store; userId: number; sid: string }): Promise<void>;
  /**
   * Destroys every session of `userId` in `store` except `keepSid`; returns how many ended.
   * @throws when the store or Redis fails.
   */
  revokeOthers(props: { store: Store; userId: number; keepSid?: string }): Promise<number>;
}

function destroy(store: Store, sid: string): Promise<void> {
  return new Promise((resolve, reject) =>
    store.destroy(sid, (err?: unknown) => (err ? reject(err) : resolve())),
  );
}

/** The session index on Redis, or in memory without a Redis client. */
export function createSessionIndex(options: { redis?: RedisClient; prefix: string }): SessionIndex {
  const { redis } = options;
  const ttlSec = Math.ceil(SESSION_ABSOLUTE_MS / 1000);
  const key = (userId: number) => `${options.prefix}user-sessions:${userId}`;
  const memory = new Map<number, Set<string>>();

  const list = async (userId: number): Promise<string[]> =>
    redis ? redis.sMembers(key(userId)) : [...(memory.get(userId) ?? [])];

  return {
    async add(userId, sid) {
      if (redis) {
        // two plain commands, each bounded by the client's command timeout (a MULTI is not), sent
        // together: the client writes them in one go and they take one round trip, not two
        await Promise.all([redis.sAdd(key(userId), sid), redis.expire(key(userId), ttlSec)]);
        return;
      }
      const set = memory.get(userId) ?? new Set<string>();
      set.add(sid);
      memory.set(userId, set);
    },
    async remove(userId, sid) {
      if (redis) await redis.sRem(key(userId), sid);
      else memory.get(userId)?.delete(sid);
    },
    list,
    async revoke({ store, userId, sid }) {
      await destroy(store, sid);
      if (redis) await redis.sRem(key(userId), sid);
      else memory.get(userId)?.delete(sid);
    },
    async revokeOthers({ store, userId, keepSid }) {
      const sids = (await list(userId)).filter((sid) => sid !== keepSid);
      for (const sid of sids) {
        await destroy(store, sid);
        if (redis) await redis.sRem(key(userId), sid);
        else memory.get(userId)?.delete(sid);
      }
      return sids.length;
    },
  };
}
