import { parseConfig } from "./config";
import { BackingServiceError, chooseBacking, startRuntime } from "./runtime";

const nothingAnswers = async () => false;
const everythingAnswers = async () => true;

describe("chooseBacking", () => {
  it("uses the embedded default for every service when none is configured or reachable", async () => {
    const choices = await chooseBacking(parseConfig({}), true, nothingAnswers);
    expect(choices).toEqual({
      database: { kind: "embedded" },
      redis: { kind: "embedded" },
      nats: { kind: "embedded" },
    });
  });

  it("uses the standard local ports when something answers there", async () => {
    const choices = await chooseBacking(parseConfig({}), true, everythingAnswers);
    expect(choices.database).toEqual({
      kind: "url",
      url: "postgresql://postgres@127.0.0.1:5432/portal",
      configured: false,
    });
    expect(choices.redis).toMatchObject({ kind: "url", url: "redis://127.0.0.1:6379" });
    expect(choices.nats).toMatchObject({ kind: "url", url: "nats://127.0.0.1:4222" });
  });

  it("prefers a configured URL, per service", async () => {
    const cfg = parseConfig({ REDIS_URL: "redis://cache.internal:6380" });
    const choices = await chooseBacking(cfg, true, nothingAnswers);
    expect(choices.redis).toEqual({ kind: "url", url: "redis://cache.internal:6380", configured: true });
    expect(choices.database).toEqual({ kind: "embedded" });
  });

  it("honours EMBEDDED=1 even when the machine's services answer", async () => {
    const choices = await chooseBacking(parseConfig({ EMBEDDED: "1" }), true, everythingAnswers);
    expect(choices.nats).toEqual({ kind: "embedded" });
  });

  it("refuses to fall back where the embedded default is not allowed, naming the service", async () => {
    await expect(chooseBacking(parseConfig({}), false, nothingAnswers)).rejects.toThrow(BackingServiceError);
    await expect(chooseBacking(parseConfig({}), false, nothingAnswers)).rejects.toThrow(
      /nothing answers on 127\.0\.0\.1:(5432|6379|4222)/,
    );
    await expect(chooseBacking(parseConfig({ EMBEDDED: "1" }), false, everythingAnswers)).rejects.toThrow(
      /EMBEDDED=1 is only for `make start`/,
    );
  });
});

describe("startRuntime", () => {
  it("connects to the machine's services, reports their modes and passes its readiness checks", async () => {
    const cfg = parseConfig({ ...process.env, EVENT_STREAM: `${process.env.EVENT_STREAM}_RT` });
    const runtime = await startRuntime(cfg, { allowEmbedded: false, consumers: [], relay: true });
    try {
      expect(runtime.modes).toEqual({ database: "postgres", sessions: "redis", events: "jetstream" });
      expect(runtime.readiness.database.mode).toBe("postgres");
      expect(runtime.readiness.sessions.mode).toBe("redis");
      expect(runtime.readiness.events.mode).toBe("jetstream");
      for (const { check } of Object.values(runtime.readiness))
        await expect(check()).resolves.toBeUndefined();
      expect(await runtime.consumerLag()).toEqual({});
    } finally {
      await runtime.close();
    }
  });

  it("stops with a clear error when a configured service does not answer", async () => {
    const cfg = parseConfig({ ...process.env, REDIS_URL: "redis://127.0.0.1:1" });
    const started = Date.now();
    await expect(startRuntime(cfg, { allowEmbedded: true, consumers: [], relay: false })).rejects.toThrow(
      /Redis at redis:\/\/127\.0\.0\.1:1 failed/,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
