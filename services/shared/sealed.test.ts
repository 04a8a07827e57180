import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { config, parseConfig, setConfig } from "./config";
import { SealError, seal, sealSetting, unseal, unsealSetting } from "./sealed";

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

describe("sealed settings", () => {
  const original = config();
  afterEach(() => setConfig(original));

  function devConfig(dataDir: string) {
    return parseConfig({ ...process.env, NODE_ENV: "development", SESSION_SECRET: "", DATA_DIR: dataDir });
  }

  it("round-trips a secret, under a key of its own (a token seal does not open it)", () => {
    const secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
    const sealed = sealSetting(secret);
    expect(sealed).not.toContain(secret);
    expect(unsealSetting(sealed)).toBe(secret);
    expect(() => unseal(sealed)).toThrow(SealError);
    expect(() => unsealSetting(seal(secret))).toThrow(SealError);
  });

  it("cannot be opened under another SESSION_SECRET", () => {
    const sealed = sealSetting("s3-secret");
    setConfig(parseConfig({ ...process.env, SESSION_SECRET: randomBytes(32).toString("hex") }));
    expect(() => unsealSetting(sealed)).toThrow(SealError);
  });

  it("without SESSION_SECRET keeps its key in DATA_DIR/.settings-key (0600), so a sealed secret survives a restart", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "sealed-"));
    try {
      setConfig(devConfig(dir));
      const sealed = sealSetting("dev-s3-secret");
      const keyFile = path.join(dir, ".settings-key");
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
      const keyText = readFileSync(keyFile, "utf8");
      // another data directory: another key
      const other = mkdtempSync(path.join(os.tmpdir(), "sealed-"));
      setConfig(devConfig(other));
      expect(() => unsealSetting(sealed)).toThrow(SealError);
      rmSync(other, { recursive: true, force: true });
      // back to the first: the same key is read again, never replaced
      setConfig(devConfig(dir));
      expect(unsealSetting(sealed)).toBe("dev-s3-secret");
      sealSetting("another");
      expect(readFileSync(keyFile, "utf8")).toBe(keyText);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
