import { randomBytes } from "node:crypto";
import type { Config } from "@services/shared/config";
import { AppError } from "@services/shared/errors";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import session, { type Store } from "express-session";

export const SESSION_COOKIE = "portal.sid";
/** Idle lifetime of a session; every request that is activity renews it (see ./sessionStore). */
export const SESSION_IDLE_MS = 30 * 60 * 1000;
/** Absolute lifetime of a signed-in session, however active (DECISIONS.md). */
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;

/**
 * How long a request waits for the session store before it is answered 503 (the Redis client bounds
 * each command too; this also covers a store that never calls back).
 */
export const SESSION_STORE_TIMEOUT_MS = 800;

let processSecret: string | undefined;

/**
 * The session secret: SESSION_SECRET, or outside production a random secret for this process
 * (sessions then end when the process restarts).
 * @throws Error in production without SESSION_SECRET (the configuration already refuses that).
 */
export function sessionSecret(cfg: Config): string {
  if (cfg.SESSION_SECRET) return cfg.SESSION_SECRET;
  if (cfg.NODE_ENV === "production") throw new Error("SESSION_SECRET is required in production");
  processSecret ??= randomBytes(32).toString("hex");
  return processSecret;
}

/**
 * express-session on the given store (cookie portal.sid: HttpOnly, SameSite=Lax, Secure when the
 * request came over HTTPS). The cookie is sent when a session is granted or changed and lasts the
 * session's absolute lifetime; the 30-minute idle expiry is the store's (./sessionStore), renewed by
 * every request that is activity, so no answer needs to sign and send the cookie again. A store that
 * fails or does not answer within {@link SESSION_STORE_TIMEOUT_MS} makes the request fail fast with
 * 503 UNAVAILABLE instead of hanging.
 */
export function sessionMiddleware(
  cfg: Config,
  store: Store,
  timeoutMs = SESSION_STORE_TIMEOUT_MS,
): RequestHandler {
  const inner = session({
    name: SESSION_COOKIE,
    secret: sessionSecret(cfg),
    store,
    resave: false,
    saveUninitialized: false,
    rolling: false,
    cookie: { httpOnly: true, sameSite: "lax", secure: "auto", maxAge: SESSION_ABSOLUTE_MS, path: "/" },
  });
  const unavailable = (cause?: unknown) =>
    new AppError("UNAVAILABLE", "Sessions are temporarily unavailable. Please try again shortly.", { cause });

  return (req: Request, res: Response, next: NextFunction) => {
    let settled = false;
    const timer = setTimeout(() => {
      // An answer that came while the process was busy elsewhere is read in the poll phase after
      // this timer's: the failure waits for that phase (setImmediate), so a stalled event loop, not
      // a slow store, no longer turns a session read that was answered in time into a 503.
      setImmediate(() => {
        if (settled) return;
        settled = true;
        next(unavailable(new Error(`session store did not answer within ${timeoutMs} ms`)));
      });
    }, timeoutMs);
    inner(req, res, (err?: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      next(err === undefined || err === null ? undefined : unavailable(err));
    });
  };
}

/** What a WebAuthn ceremony of the session is for (issue 20). */
export type WebAuthnPurpose = "register" | "secondFactor" | "passkeySignIn" | "confirmIdentity";

declare module "express-session" {
  interface SessionData {
    /** the signed-in user */
    userId?: number;
    /** when the user signed in (ms since epoch); the session ends 12 hours later */
    loginAt?: number;
    /**
     * when this session was last granted or re-stamped (ms since epoch); refused when earlier than
     * the user's sessionsValidAfter (a password, status or type change)
     */
    issuedAt?: number;
    /** the browser and system the session was granted to ("Chrome on Linux"), from its User-Agent */
    device?: string;
    /** the address the session was granted to */
    ip?: string;
    /** an enhanced sign-in whose password this session passed, waiting for its answer until `until` (ms) */
    pendingSecurity?: { userId: number; until: number };
    /** a sign-in whose password this session passed, waiting for its second factor until `until` (ms) */
    pendingTwoFactor?: { userId: number; until: number };
    /** the challenge of the WebAuthn ceremony under way, for `purpose`, until `until` (ms); used once */
    webauthn?: { challenge: string; purpose: WebAuthnPurpose; until: number };
    /** when the user last proved who they are (a sign-in, a password or second factor given again) */
    identityConfirmedAt?: number;
    /**
     * the mainAdmin whose role switch (issue 21, outside production) signed this session in as a
     * demo user; the session holds only while that admin's does
     */
    roleSwitchedBy?: number;
  }
}
