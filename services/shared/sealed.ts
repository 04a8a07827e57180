import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { config } from "./config";

// Seals short secrets (one-time tokens) that must travel through the outbox and the event bus to
// the email service without being readable there: AES-256-GCM with a key derived by HKDF-SHA256
// from SESSION_SECRET. Format: v1.<iv>.<ciphertext>.<tag>, each part base64url.
// Settings stored in the database (the cloud storage secret) are sealed the same way under another
// key (another HKDF info); without SESSION_SECRET (development) that key's secret is kept in
// DATA_DIR/.settings-key so a stored setting still opens after a restart.

const VERSION = "v1";
const SALT = "portal/sealed";
const INFO = "one-time-token seal v1";
const SETTING_INFO = "setting seal v1";
const SETTINGS_KEY_FILE = ".settings-key";

let devSecret: string | undefined;
let cachedKey: { secret: string; key: Buffer } | undefined;
let cachedSettingKey: { secret: string; key: Buffer } | undefined;

/** Raised when a sealed value is malformed, was tampered with, or was sealed under another key. */
export class SealError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SealError";
  }
}

function key(): Buffer {
  devSecret ??= randomBytes(32).toString("hex");
  const secret = config().SESSION_SECRET ?? devSecret;
  if (cachedKey?.secret !== secret) {
    cachedKey = { secret, key: Buffer.from(hkdfSync("sha256", secret, SALT, INFO, 32)) };
  }
  return cachedKey.key;
}

/**
 * Seals a string so that only a process holding the same SESSION_SECRET can read it (in development
 * without SESSION_SECRET: only this process).
 */
export function seal(plain: string): string {
  return sealWith(key(), plain);
}

/**
 * Opens a value made by `seal`.
 * @throws SealError when the value is malformed, altered, or sealed under another secret.
 */
export function unseal(sealed: string): string {
  return unsealWith(key(), sealed);
}

/**
 * The secret behind settings' seal: SESSION_SECRET, or (development, unset) a random one created
 * once in DATA_DIR/.settings-key (mode 0600) and read from there afterwards.
 */
function settingSecret(): string {
  const configured = config().SESSION_SECRET;
  if (configured) return configured;
  const file = path.join(config().DATA_DIR, SETTINGS_KEY_FILE);
  try {
    return readFileSync(file, "utf8").trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  mkdirSync(path.dirname(file), { recursive: true });
  try {
    // "wx": two processes starting together cannot both create it; the loser reads the winner's
    writeFileSync(file, randomBytes(32).toString("hex"), { mode: 0o600, flag: "wx" });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  return readFileSync(file, "utf8").trim();
}

function settingKey(): Buffer {
  const secret = settingSecret();
  if (cachedSettingKey?.secret !== secret) {
    cachedSettingKey = { secret, key: Buffer.from(hkdfSync("sha256", secret, SALT, SETTING_INFO, 32)) };
  }
  return cachedSettingKey.key;
}

/**
 * Seals a setting stored in the database (the cloud storage secret): readable by any process of the
 * deployment (same SESSION_SECRET, or in development the same data directory), after restarts too.
 * @throws Error when the development key file cannot be created in DATA_DIR.
 */
export function sealSetting(plain: string): string {
  return sealWith(settingKey(), plain);
}

/**
 * Opens a value made by `sealSetting`.
 * @throws SealError when the value is malformed, altered, or sealed under another key.
 */
export function unsealSetting(sealed: string): string {
  return unsealWith(settingKey(), sealed);
}

function sealWith(secretKey: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", secretKey, iv);
  const ciphertext = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv, ciphertext, tag]
    .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
    .join(".");
}

function unsealWith(secretKey: Buffer, sealed: string): string {
  const parts = sealed.split(".");
  const [version, ivText, ciphertextText, tagText] = parts;
  if (parts.length !== 4 || version !== VERSION || !ivText || ciphertextText === undefined || !tagText) {
    throw new SealError("not a sealed value");
  }
  const iv = Buffer.from(ivText, "base64url");
  const tag = Buffer.from(tagText, "base64url");
  if (iv.length !== 12 || tag.length !== 16) throw new SealError("not a sealed value");
  try {
    const decipher = createDecipheriv("aes-256-gcm", secretKey, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([
      decipher.update(Buffer.from(ciphertextText, "base64url")),
      decipher.final(),
    ]).toString("utf8");
  } catch {
    throw new SealError("sealed value was altered or sealed under another key");
  }
}
