import { createHmac, timingSafeEqual } from "node:crypto";
import { sessionSecret } from "@gateway/http/session";
import type { Config } from "@services/shared/config";
import type { Request, Response } from "express";

// A "known device" cookie (OWASP's device cookies): a browser that once signed in to an account
// carries a signed mark of it, and is exempt from that account's account-wide sign-in backoff. An
// attacker failing against the account from many addresses then slows only unknown devices; the
// owner's browser still signs in (its own per-address backoff still applies).

export const DEVICE_COOKIE = "portal.device";
const DEVICE_LIFETIME_MS = 90 * 24 * 60 * 60 * 1000;

function sign(cfg: Config, payload: string): string {
  return createHmac("sha256", sessionSecret(cfg)).update(`device:${payload}`).digest("base64url");
}

function cookieValue(req: Request, name: string): string | undefined {
  const header = req.headers.cookie ?? "";
  for (const part of header.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return decodeURIComponent(rest.join("="));
  }
  return undefined;
}

/** Marks this browser as a known device of `userId` (after a successful sign-in). */
export function rememberDevice(cfg: Config, req: Request, res: Response, userId: number): void {
  const expires = Date.now() + DEVICE_LIFETIME_MS;
  const payload = `${userId}.${expires}`;
  res.cookie(DEVICE_COOKIE, `${payload}.${sign(cfg, payload)}`, {
    httpOnly: true,
    sameSite: "lax",
    secure: req.secure,
    path: "/api",
    maxAge: DEVICE_LIFETIME_MS,
  });
}

/** Whether the request carries a valid, unexpired known-device mark for `userId`. */
export function isKnownDevice(cfg: Config, req: Request, userId: number): boolean {
  const value = cookieValue(req, DEVICE_COOKIE);
  if (!value) return false;
  const parts = value.split(".");
  if (parts.length !== 3) return false;
  const [id, expires, mac] = parts as [string, string, string];
  if (Number(id) !== userId || !(Number(expires) > Date.now())) return false;
  const expected = Buffer.from(sign(cfg, `${id}.${expires}`));
  const given = Buffer.from(mac);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
