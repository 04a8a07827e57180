import session, { type SessionData } from "express-session";
import { connectRedis } from "./redis";
import { markNotActivity, PortalMemoryStore, PortalRedisStore, SESSION_IDLE_SECONDS } from "./sessionStore";

/** A stored session as express-session hands it to a store, optionally marked as a mere check. */
function stored(check = false): SessionData {
  const cookie = new session.Cookie();
  cookie.maxAge = 60_000;
  const sess = { cookie } as unknown as session.Session & SessionData;
  if (check) markNotActivity(sess);
  return sess;
}

const get = (store: session.Store, sid: string) =>
  new Promise<SessionData | null | undefined>((resolve, reject) =>
    store.get(sid, (err, sess) => (err ? reject(err) : resolve(sess))),
  );

describe("the embedded (memory) session store", () => {
  // the clock is Jest's: a loaded machine's late timers once let 200 ms of waiting run past the
  // 300 ms idle time (setImmediate stays real: the memory store answers through it)
  beforeEach(() => {
    jest.useFakeTimers({ doNotFake: ["setImmediate", "nextTick", "queueMicrotask"] });
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it("ends a session that stays idle, renews it on activity, and not on a check", async () => {
    const store = new PortalMemoryStore(300);
    store.set("a", stored());
    expect(await get(store, "a")).toBeTruthy();
    jest.advanceTimersByTime(200);
    store.touch("a", stored(), () => undefined);
    jest.advanceTimersByTime(200);
    // 400 ms since it was set, 200 since the activity: alive
    expect(await get(store, "a")).toBeTruthy();
    store.touch("a", stored(true), () => undefined);
    // not renewed to 300 ms: 100 remain
    expect(await store.remainingMs("a")).toBe(100);
    jest.advanceTimersByTime(99);
    expect(await get(store, "a")).toBeTruthy();
    jest.advanceTimersByTime(1);
    expect(await get(store, "a")).toBeFalsy();
    expect(await store.remainingMs("a")).toBeNull();
  });
});

describe("the Redis session store", () => {
  it("keeps each session for the idle time, renews it on activity, and not on a check", async () => {
    const url = process.env.REDIS_URL;
    if (!url) throw new Error("REDIS_URL is unset");
    const client = await connectRedis(url);
    const prefix = `${process.env.REDIS_PREFIX ?? "test:"}store-test:`;
    const store = new PortalRedisStore({ client, prefix });
    try {
      await new Promise<void>((resolve, reject) =>
        store.set("s", stored(), (err) => (err ? reject(err) : resolve())),
      );
      expect(await client.ttl(`${prefix}s`)).toBe(SESSION_IDLE_SECONDS);
      await client.expire(`${prefix}s`, 60);
      await store.touch("s", stored(true));
      expect(await store.remainingMs("s")).toBeLessThanOrEqual(60_000);
      await store.touch("s", stored());
      expect(await store.remainingMs("s")).toBeGreaterThan(60_000);
      expect(await store.remainingMs("missing")).toBeNull();
    } finally {
      await client.del(`${prefix}s`);
      client.destroy();
    }
  });
});
