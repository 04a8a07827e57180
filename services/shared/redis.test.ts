import { closedPort } from "../../gateway/src/testing/appHarness";
import { connectRedis, createRedisClient, reconnectDelay } from "./redis";

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
    const started = Date.now();
    await expect(
      connectRedis(`redis://:hunter2@127.0.0.1:${port}`, { initialConnectTimeoutMs: 500 }),
    ).rejects.toThrow(new RegExp(`127\\.0\\.0\\.1:${port}.*did not answer`));
    await expect(
      connectRedis(`redis://:hunter2@127.0.0.1:${port}`, { initialConnectTimeoutMs: 300 }),
    ).rejects.not.toThrow(/hunter2/);
    expect(Date.now() - started).toBeLessThan(2000);
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

  it("backs off exponentially, capped, and never gives up", () => {
    expect(reconnectDelay(0)).toBeLessThanOrEqual(100);
    expect(reconnectDelay(3)).toBeGreaterThan(reconnectDelay(0));
    for (const retries of [20, 1000, 1e6]) {
      const delay = reconnectDelay(retries, 5000);
      expect(delay).toBeGreaterThan(0);
      expect(delay).toBeLessThanOrEqual(5000);
    }
  });
});
