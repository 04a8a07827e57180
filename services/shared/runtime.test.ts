import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseConfig } from "./config";
import { deleteStream } from "./events/testing/bus";
import { connectNats } from "./nats";
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

  it("derives the stream, subject prefix and Redis prefix left unset from its database's deployment", async () => {
    const { EVENT_STREAM: _s, SUBJECT_PREFIX: _p, REDIS_PREFIX: _r, ...env } = process.env;
    const runtime = await startRuntime(parseConfig(env), {
      allowEmbedded: false,
      consumers: [],
      relay: true,
    });
    try {
      expect(runtime.deployment).toMatch(/^[0-9a-f]{10}$/);
      expect(runtime.config).toMatchObject({
        EVENT_STREAM: `PORTAL_${runtime.deployment}`,
        SUBJECT_PREFIX: `portal_${runtime.deployment}`,
        REDIS_PREFIX: `portal:${runtime.deployment}:`,
        derivedNames: [],
      });
      // the same database gives the same deployment, and so the same names
      const again = await startRuntime(parseConfig(env), {
        allowEmbedded: false,
        consumers: [],
        relay: false,
      });
      expect(again.deployment).toBe(runtime.deployment);
      await again.close();
    } finally {
      await runtime.close();
      const nc = await connectNats(process.env.NATS_URL ?? "nats://127.0.0.1:4222");
      await deleteStream(nc, `PORTAL_${runtime.deployment}`);
      await nc.close();
    }
  });

  it("reports each backing service and its mode in the embedded default", async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "portal-runtime-"));
    const cfg = parseConfig({ EMBEDDED: "1", DATA_DIR: dataDir, LOG_LEVEL: "silent" });
    const runtime = await startRuntime(cfg, { allowEmbedded: true, consumers: [], relay: true });
    try {
      expect(runtime.modes).toEqual({ database: "embedded", sessions: "memory", events: "in-process" });
      expect(
        Object.fromEntries(Object.entries(runtime.readiness).map(([name, c]) => [name, c.mode])),
      ).toEqual({
        database: "embedded",
        sessions: "memory",
        events: "in-process",
      });
      for (const { check } of Object.values(runtime.readiness))
        await expect(check()).resolves.toBeUndefined();
      expect(runtime.deployment).toMatch(/^[0-9a-f]{10}$/);
      expect(runtime.config.SUBJECT_PREFIX).toBe(`portal_${runtime.deployment}`);
    } finally {
      await runtime.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it("stops with a clear error when a configured service does not answer", async () => {
    const cfg = parseConfig({ ...process.env, REDIS_URL: "redis://127.0.0.1:1" });
    const started = Date.now();
    await expect(startRuntime(cfg, { allowEmbedded: true, consumers: [], relay: false })).rejects.toThrow(
      /Redis at redis:\/\/127\.0\.0\.1:1 failed/,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
