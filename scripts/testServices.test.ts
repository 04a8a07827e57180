import { dockerEngineAvailable, requireTestServices } from "./testServices";

describe("requireTestServices", () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it("finds the machine's services on their standard ports", async () => {
    delete process.env.TEST_DATABASE_URL;
    delete process.env.TEST_REDIS_URL;
    delete process.env.TEST_NATS_URL;
    await expect(requireTestServices()).resolves.toEqual({
      databaseUrl: "postgresql://postgres@127.0.0.1:5432/postgres",
      redisUrl: "redis://127.0.0.1:6379",
      natsUrl: "nats://127.0.0.1:4222",
    });
  });

  it("names a service that does not answer and how to start it, rather than faking it", async () => {
    process.env.TEST_REDIS_URL = "redis://127.0.0.1:1";
    if (dockerEngineAvailable()) {
      // Where Docker exists, testcontainers stands in for the missing service instead.
      const services = await requireTestServices();
      expect(services.redisUrl).not.toBe("redis://127.0.0.1:1");
      return;
    }
    const attempt = requireTestServices();
    await expect(attempt).rejects.toThrow(/redis:\/\/127\.0\.0\.1:1 — start Redis: redis-server/);
    await expect(requireTestServices()).rejects.not.toThrow(/postgresql:\/\/|nats:\/\//);
  });
});
