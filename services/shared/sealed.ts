import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { config } from "./config";

// Seals short secrets (one-time tokens) that must travel through the outbox and the event bus to
// the email service without being readable there: AES-256-GCM with a key derived by HKDF-SHA256
// from SESSION_SECRET. Format: v1.<iv>.<ciphertext>.<tag>, each part base64url.

const VERSION = "v1";
const SALT = "portal/sealed";
const INFO = "one-time-token seal v1";

let devSecret: string | undefined;
let cachedKey: { secret: string; key: Buffer } | undefined;

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
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(), iv);
  const ciphertext = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv, ciphertext, tag]
    .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
    .join(".");
}

/**
 * Opens a value made by `seal`.
 * @throws SealError when the value is malformed, altered, or sealed under another secret.
 */
export function unseal(sealed: string): string {
  const parts = sealed.split(".");
  const [version, ivText, ciphertextText, tagText] = parts;
  if (parts.length !== 4 || version !== VERSION || !ivText || ciphertextText === undefined || !tagText) {
    throw new SealError("not a sealed value");
  }
  const iv = Buffer.from(ivText, "base64url");
  const tag = Buffer.from(tagText, "base64url");
  if (iv.length !== 12 || tag.length !== 16) throw new SealError("not a sealed value");
  try {
    const decipher = createDecipheriv("aes-256-gcm", key(), iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([
      decipher.update(Buffer.from(ciphertextText, "base64url")),
      decipher.final(),
    ]).toString("utf8");
  } catch {
    throw new SealError("sealed value was altered or sealed under another key");
  }
}
