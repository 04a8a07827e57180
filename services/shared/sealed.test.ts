import { randomBytes } from "node:crypto";
import { config, parseConfig, setConfig } from "./config";
import { SealError, seal, unseal } from "./sealed";

describe("sealed tokens", () => {
  const original = config();
  afterEach(() => setConfig(original));

  it("round-trips a token and never shows it in the sealed text", () => {
    const token = randomBytes(32).toString("base64url");
    const sealed = seal(token);
    expect(sealed).not.toContain(token);
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(unseal(sealed)).toBe(token);
  });

  it("seals the same token differently each time", () => {
    expect(seal("same")).not.toBe(seal("same"));
  });

  it("refuses a tampered value", () => {
    const sealed = seal("reset-token-123");
    const [v, iv, ct, tag] = sealed.split(".") as [string, string, string, string];
    const flipped = Buffer.from(ct, "base64url");
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    expect(() => unseal([v, iv, flipped.toString("base64url"), tag].join("."))).toThrow(SealError);
    expect(() => unseal("v1.abc")).toThrow(SealError);
    expect(() => unseal("plain-token")).toThrow(SealError);
  });

  it("cannot be opened under another SESSION_SECRET", () => {
    const sealed = seal("verify-token");
    setConfig(parseConfig({ ...process.env, SESSION_SECRET: randomBytes(32).toString("hex") }));
    expect(() => unseal(sealed)).toThrow(SealError);
    setConfig(original);
    expect(unseal(sealed)).toBe("verify-token");
  });

  it("works without SESSION_SECRET in development, with a key private to the process", () => {
    setConfig(parseConfig({ ...process.env, NODE_ENV: "development", SESSION_SECRET: "" }));
    const sealed = seal("dev-token");
    expect(unseal(sealed)).toBe("dev-token");
    setConfig(original);
    expect(() => unseal(sealed)).toThrow(SealError);
  });
});
