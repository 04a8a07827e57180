import { closedPort } from "@gateway/testing/appHarness";
import {
  connectRedis,
  createRedisClient,
  REDIS_COMMAND_TIMEOUT_MS,
  REDIS_MAX_BACKOFF_MS,
  readyWithin,
  reconnectDelay,
  withDeadline,
} from "./redis";
import { startPrivateRedis } from "./testing/privateRedis";

describe("redis", () => {
  it("connects to the run's Redis and round-trips a key", async () => {
    const url = process.env.REDIS_URL;
    if (!url) throw new Error("REDIS_URL is unset");
    const client = await connectRedis(url);
    try {
      const key = `${process.env.REDIS_PREFIX ?? "test:"}redis-test`;
      await client.set(key, "v", { EX: 10 });
      expect(await client.get(key)).toBe("v");
      await client.del(key);
    } finally {
      client.destroy();
    }
  });

  it("gives up the first connection after its timeout, naming the address", async () => {
    const port = await closedPort();
    // each attempt gives up at its own timeout, not the default's 5 s (the bound leaves room for a
    // loaded machine's late timers: one run saw 800 ms of timeouts take 2.4 s)
    let started = Date.now();
    await expect(
      connectRedis(`redis://:hunter2@127.0.0.1:${port}`, { initialConnectTimeoutMs: 500 }),
    ).rejects.toThrow(new RegExp(`127\\.0\\.0\\.1:${port}.*did not answer`));
    expect(Date.now() - started).toBeLessThan(3000);
    started = Date.now();
    await expect(
      connectRedis(`redis://:hunter2@127.0.0.1:${port}`, { initialConnectTimeoutMs: 300 }),
    ).rejects.not.toThrow(/hunter2/);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("fails a command at once while disconnected instead of queueing it", async () => {
    const port = await closedPort();
    const client = createRedisClient(`redis://127.0.0.1:${port}`);
    client.connect().catch(() => undefined);
    try {
      const started = Date.now();
      await expect(client.get("anything")).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(200);
    } finally {
      client.destroy();
    }
  });

  it("fails a command to a frozen Redis after its deadline, and answers again once it thaws", async () => {
    const redis = await startPrivateRedis();
    const client = await connectRedis(redis.url, { commandTimeoutMs: REDIS_COMMAND_TIMEOUT_MS });
    try {
      await client.set("k", "before");
      redis.freeze();
      const started = Date.now();
      await expect(client.get("k")).rejects.toThrow(/did not answer within/);
      const elapsed = Date.now() - started;
      expect(elapsed).toBeGreaterThanOrEqual(REDIS_COMMAND_TIMEOUT_MS - 50);
      expect(elapsed).toBeLessThan(REDIS_COMMAND_TIMEOUT_MS + 400);
      // a MULTI is a builder: its exec() is bounded by withDeadline
      await expect(withDeadline(() => client.multi().get("k").exec(), 200)).rejects.toThrow(/within 200 ms/);
      redis.thaw();
      expect(await client.get("k")).toBe("before");
    } finally {
      redis.thaw();
      client.destroy();
      await redis.stop();
    }
  });

  it("does not time out an answer that arrived while this process's event loop was blocked", async () => {
    const redis = await startPrivateRedis();
    const client = await connectRedis(redis.url, { commandTimeoutMs: REDIS_COMMAND_TIMEOUT_MS });
    try {
      await client.set("k", "answered");
      const answer = client.get("k");
      // the answer lands on the socket while a synchronous task holds the loop past the deadline
      const until = Date.now() + REDIS_COMMAND_TIMEOUT_MS + 300;
      while (Date.now() < until) {
        // busy: a long render, a GC pause, a starved CPU
      }
      await expect(answer).resolves.toBe("answered");
      const work = withDeadline(() => client.multi().get("k").exec(), 200);
      const until2 = Date.now() + 450;
      while (Date.now() < until2) {
        // busy again, past twice the deadline
      }
      await expect(work).resolves.toEqual(["answered"]);
    } finally {
      client.destroy();
      await redis.stop();
    }
  });

  it("reconnects within its short backoff when Redis returns, so a waiting request finds it ready", async () => {
    const redis = await startPrivateRedis();
    const client = await connectRedis(redis.url, { commandTimeoutMs: REDIS_COMMAND_TIMEOUT_MS });
    try {
      await redis.kill();
      await expect(client.get("k")).rejects.toThrow();
      // let the backoff reach its cap
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(client.isReady).toBe(false);
      expect(await readyWithin(client, 50)).toBe(false);
      await redis.start();
      expect(await readyWithin(client, REDIS_MAX_BACKOFF_MS + 150)).toBe(true);
      expect(await client.ping()).toBe("PONG");
    } finally {
      client.destroy();
      await redis.stop();
    }
  });

  it("backs off exponentially, capped, and never gives up", () => {
    expect(reconnectDelay(0)).toBeLessThanOrEqual(50);
    expect(reconnectDelay(3)).toBeGreaterThan(reconnectDelay(0));
    for (const retries of [20, 1000, 1e6]) {
      const delay = reconnectDelay(retries, 5000);
      expect(delay).toBeGreaterThan(0);
      expect(delay).toBeLessThanOrEqual(5000);
    }
  });
});
