import { ConfigError, config, parseConfig, setConfig } from "@services/shared/config";
import { configuredSmtpPool } from "./mailTransport";

// The email sending settings of the configuration: safe defaults, and a bad value stops start-up
// with a message naming the variable.

describe("email sending configuration", () => {
  it("pools five connections of 100 messages each and sends ten messages at once by default", () => {
    const cfg = parseConfig({});
    expect(cfg.SMTP_POOL).toBe(true);
    expect(cfg.SMTP_MAX_CONNECTIONS).toBe(5);
    expect(cfg.SMTP_MAX_MESSAGES).toBe(100);
    expect(cfg.EMAIL_SEND_CONCURRENCY).toBe(10);
  });

  it("reads the pool and the concurrency from the environment", () => {
    const cfg = parseConfig({
      SMTP_POOL: "0",
      SMTP_MAX_CONNECTIONS: "12",
      SMTP_MAX_MESSAGES: "500",
      EMAIL_SEND_CONCURRENCY: "30",
    });
    expect(cfg).toMatchObject({
      SMTP_POOL: false,
      SMTP_MAX_CONNECTIONS: 12,
      SMTP_MAX_MESSAGES: 500,
      EMAIL_SEND_CONCURRENCY: 30,
    });
  });

  it.each([
    ["SMTP_POOL", "sometimes"],
    ["SMTP_MAX_CONNECTIONS", "0"],
    ["SMTP_MAX_CONNECTIONS", "51"],
    ["SMTP_MAX_CONNECTIONS", "two"],
    ["SMTP_MAX_MESSAGES", "0"],
    ["SMTP_MAX_MESSAGES", "10001"],
    ["EMAIL_SEND_CONCURRENCY", "0"],
    ["EMAIL_SEND_CONCURRENCY", "101"],
    ["EMAIL_SEND_CONCURRENCY", "2.5"],
  ])("refuses %s=%s, naming the variable", (name, value) => {
    expect(() => parseConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => parseConfig({ [name]: value })).toThrow(new RegExp(`${name}: .*\\(got "${value}"\\)`));
  });

  it("gives the SMTP transport the configured pool, or none when SMTP_POOL is off", () => {
    const original = config();
    try {
      setConfig({ ...original, SMTP_POOL: true, SMTP_MAX_CONNECTIONS: 3, SMTP_MAX_MESSAGES: 7 });
      expect(configuredSmtpPool()).toEqual({ maxConnections: 3, maxMessages: 7 });
      setConfig({ ...original, SMTP_POOL: false });
      expect(configuredSmtpPool()).toBe(false);
    } finally {
      setConfig(original);
    }
  });
});
