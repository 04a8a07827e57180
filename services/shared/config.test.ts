import path from "node:path";
import {
  ConfigError,
  config,
  deploymentName,
  deploymentNames,
  parseConfig,
  resolveDeploymentNames,
  setConfig,
} from "./config";

describe("parseConfig", () => {
  it("applies the documented defaults to an empty environment", () => {
    const cfg = parseConfig({});
    expect(cfg.PORT).toBe(3000);
    expect(cfg.NODE_ENV).toBe("development");
    expect(cfg.EMBEDDED).toBe(false);
    expect(cfg.DATABASE_URL).toBeUndefined();
    expect(cfg.PRO_APP_URL).toBe("https://pro.esrt.example");
    expect(cfg.DATA_DIR).toBe(path.resolve("./data"));
    expect(cfg.WORKERS).toBe("all");
    expect(cfg.RELAY).toBe(true);
    expect(cfg.APPOINTMENT_REMINDER_INTERVAL_MS).toBe(60_000);
  });

  it("reads and converts the values it is given", () => {
    const cfg = parseConfig({
      PORT: "8080",
      EMBEDDED: "1",
      DATABASE_URL: "postgresql://u@db:5432/portal",
      RELAY: "false",
      APPOINTMENT_REMINDER_INTERVAL_MS: "15000",
    });
    expect(cfg.PORT).toBe(8080);
    expect(cfg.EMBEDDED).toBe(true);
    expect(cfg.DATABASE_URL).toBe("postgresql://u@db:5432/portal");
    expect(cfg.RELAY).toBe(false);
    expect(cfg.APPOINTMENT_REMINDER_INTERVAL_MS).toBe(15_000);
  });

  it("treats empty values as unset, as in a copied .env.example", () => {
    expect(parseConfig({ DATABASE_URL: "", PORT: "" }).PORT).toBe(3000);
  });

  it.each([
    ["PORT", "eighty", /PORT: .*"eighty"/],
    ["PORT", "70000", /PORT/],
    ["DATABASE_URL", "mysql://localhost/db", /DATABASE_URL: must be a URL starting with postgres:\/\//],
    ["REDIS_URL", "not a url", /REDIS_URL/],
    ["EMBEDDED", "maybe", /EMBEDDED/],
    ["WORKERS", "user;email", /WORKERS/],
    ["SESSION_SECRET", "short", /SESSION_SECRET: must be at least 32 characters$/m],
    ["APPOINTMENT_REMINDER_INTERVAL_MS", "10", /APPOINTMENT_REMINDER_INTERVAL_MS/],
    ["APPOINTMENT_REMINDER_INTERVAL_MS", "soon", /APPOINTMENT_REMINDER_INTERVAL_MS/],
  ])("stops with a message naming %s when it is %s", (name, value, message) => {
    expect(() => parseConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => parseConfig({ [name]: value })).toThrow(message);
  });

  it("never echoes a secret in its message", () => {
    expect(() => parseConfig({ ADMIN_PASSWORD: "abc" })).toThrow(/ADMIN_PASSWORD: must be at least 8/);
    expect(() => parseConfig({ ADMIN_PASSWORD: "abc" })).not.toThrow(/"abc"/);
    expect(() => parseConfig({ METRICS_TOKEN: "abc" })).toThrow(/METRICS_TOKEN: must be at least 16/);
    expect(() => parseConfig({ METRICS_TOKEN: "abc" })).not.toThrow(/"abc"/);
  });

  it("names every bad variable at once", () => {
    expect(() => parseConfig({ PORT: "x", LOG_LEVEL: "loud" })).toThrow(
      /PORT[\s\S]*LOG_LEVEL|LOG_LEVEL[\s\S]*PORT/,
    );
  });

  it("requires a session secret and the Pro-app address in production", () => {
    expect(() => parseConfig({ NODE_ENV: "production" })).toThrow(/SESSION_SECRET: is required/);
    expect(() => parseConfig({ NODE_ENV: "production", SESSION_SECRET: "x".repeat(32) })).toThrow(
      /PRO_APP_URL: is required/,
    );
    const cfg = parseConfig({
      NODE_ENV: "production",
      SESSION_SECRET: "x".repeat(32),
      PRO_APP_URL: "https://pro.esrt.app",
    });
    expect(cfg.PRO_APP_URL).toBe("https://pro.esrt.app");
  });
});

describe("names derived from the deployment", () => {
  it("derives the stream, subject prefix and Redis prefix left unset from the deployment id", () => {
    const cfg = parseConfig({});
    expect(cfg.derivedNames).toEqual(["REDIS_PREFIX", "EVENT_STREAM", "SUBJECT_PREFIX"]);
    const resolved = resolveDeploymentNames(cfg, "3f9a0c21bd");
    expect(resolved).toMatchObject({
      EVENT_STREAM: "PORTAL_3f9a0c21bd",
      SUBJECT_PREFIX: "portal_3f9a0c21bd",
      REDIS_PREFIX: "portal:3f9a0c21bd:",
      derivedNames: [],
    });
    // two deployments never share a name
    const other = resolveDeploymentNames(cfg, "77c0de11aa");
    for (const name of ["EVENT_STREAM", "SUBJECT_PREFIX", "REDIS_PREFIX"] as const) {
      expect(other[name]).not.toBe(resolved[name]);
    }
    // the derived names pass the settings' own rules
    expect(() =>
      parseConfig({
        EVENT_STREAM: resolved.EVENT_STREAM,
        SUBJECT_PREFIX: resolved.SUBJECT_PREFIX,
        REDIS_PREFIX: resolved.REDIS_PREFIX,
      }),
    ).not.toThrow();
  });

  it("keeps the names set explicitly, deriving only the others", () => {
    const cfg = parseConfig({ EVENT_STREAM: "SHARED", SUBJECT_PREFIX: "shared" });
    expect(cfg.derivedNames).toEqual(["REDIS_PREFIX"]);
    expect(resolveDeploymentNames(cfg, "3f9a0c21bd")).toMatchObject({
      EVENT_STREAM: "SHARED",
      SUBJECT_PREFIX: "shared",
      REDIS_PREFIX: "portal:3f9a0c21bd:",
    });
    expect(deploymentNames("abc").EVENT_STREAM).toBe("PORTAL_abc");
  });
});

describe("deploymentName", () => {
  const original = config();
  afterEach(() => setConfig(original));

  it("refuses a name still to derive, so nothing reaches NATS or Redis with a shared legacy name", () => {
    setConfig(parseConfig({ EVENT_STREAM: "PINNED" }));
    expect(deploymentName("EVENT_STREAM")).toBe("PINNED");
    expect(() => deploymentName("SUBJECT_PREFIX")).toThrow(/SUBJECT_PREFIX is derived from the deployment/);
    setConfig(resolveDeploymentNames(config(), "3f9a0c21bd"));
    expect(deploymentName("SUBJECT_PREFIX")).toBe("portal_3f9a0c21bd");
  });
});
