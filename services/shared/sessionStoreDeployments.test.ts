import { randomBytes } from "node:crypto";
import type session from "express-session";
import { connectRedis, type RedisClient } from "./redis";
import { PortalRedisStore } from "./sessionStore";

// Two deployments configured with one REDIS_PREFIX share the keys: each must still see only its own
// sessions.

let redis: RedisClient;
const prefix = `${process.env.REDIS_PREFIX ?? "test:"}shared-${randomBytes(3).toString("hex")}:sess:`;

beforeAll(async () => {
  redis = await connectRedis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
});
afterAll(async () => {
  for await (const keys of redis.scanIterator({ MATCH: `${prefix}*`, COUNT: 100 })) {
    if (keys.length > 0) await redis.del(keys);
  }
  redis.destroy();
});

const call = <T>(fn: (cb: (err: unknown, value?: T) => void) => void): Promise<T | undefined> =>
  new Promise((resolve, reject) => fn((err, value) => (err ? reject(err) : resolve(value))));

function data(userId: number): session.SessionData {
  return {
    cookie: { originalMaxAge: 60_000, expires: new Date(Date.now() + 60_000), httpOnly: true, path: "/" },
    userId,
  } as unknown as session.SessionData;
}

describe("the Redis session store of one deployment", () => {
  it("reads back its own sessions and treats another deployment's as absent", async () => {
    const a = new PortalRedisStore({ client: redis, prefix, deployment: "aaaa000001" });
    const b = new PortalRedisStore({ client: redis, prefix, deployment: "bbbb000002" });
    const sid = randomBytes(12).toString("hex");
    await call((cb) => a.set(sid, data(1), cb));

    const own = await call<session.SessionData | null>((cb) => a.get(sid, cb));
    expect(own).toMatchObject({ userId: 1 });
    expect(await call<session.SessionData | null>((cb) => b.get(sid, cb))).toBeNull();

    // the record in Redis carries the deployment it belongs to
    const raw = await redis.get(`${prefix}${sid}`);
    expect(JSON.parse(raw ?? "{}")).toMatchObject({ userId: 1, deployment: "aaaa000001" });

    // a record without a deployment (written before it was stamped) belongs to no deployment
    await redis.set(`${prefix}${sid}`, JSON.stringify({ cookie: {}, userId: 1 }));
    expect(await call<session.SessionData | null>((cb) => a.get(sid, cb))).toBeNull();

    await call((cb) => a.destroy(sid, cb));
    expect(await redis.exists(`${prefix}${sid}`)).toBe(0);
  });

  it("lists only its own sessions", async () => {
    const a = new PortalRedisStore({ client: redis, prefix, deployment: "aaaa000001" });
    const b = new PortalRedisStore({ client: redis, prefix, deployment: "bbbb000002" });
    await call((cb) => a.set(randomBytes(12).toString("hex"), data(7), cb));
    await call((cb) => b.set(randomBytes(12).toString("hex"), data(8), cb));
    const mine = await call<session.SessionData[] | Record<string, session.SessionData> | null>((cb) =>
      a.all(cb),
    );
    const list = Array.isArray(mine) ? mine : Object.values(mine ?? {});
    expect(list.map((s) => (s as unknown as { userId: number }).userId)).toEqual([7]);
    expect(await call<number>((cb) => b.length(cb))).toBe(1);
  });
});
