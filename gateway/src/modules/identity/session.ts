import { limitRefusal } from "@gateway/auth/actor";
import { permissionsOf } from "@gateway/auth/permissions";
import { SESSION_ABSOLUTE_MS, SESSION_COOKIE } from "@gateway/http/session";
import type { SafeUser } from "@schema/api/user";
import type { Config } from "@services/shared/config";
import type { Db } from "@services/shared/db";
import { AppError } from "@services/shared/errors";
import type { User } from "@services/shared/generated/prisma/client";
import { logger } from "@services/shared/logger";
import type { RateLimiter } from "@services/shared/rateLimit";
import { findSessionUser, type SessionLimit, sessionLimitOf, toSafeUser } from "@services/user";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { Store } from "express-session";
import { deviceLabel } from "./deviceLabel";
import { roleSwitchHolds } from "./roleSwitchRule";
import type { SessionIndex } from "./sessionIndex";

/** What the identity surface (REST shims and GraphQL resolvers alike) works with. */
export interface IdentityDeps {
  config: Config;
  db: Db;
  store: Store;
  sessions: SessionIndex;
  limiter: RateLimiter;
}

const log = () => logger("identity");

export const UNAUTHORIZED_MESSAGE = "Unauthorized - Please log in";

/**
 * A user as answers show it, with the permissions of the matrix; `limitedTo` marks the signed-in
 * user's own answer while their session is limited (needsVerification, needsTwoFactorEnrolment).
 */
export function present(user: User, options: { limitedTo?: SessionLimit | null } = {}): SafeUser {
  const safe = toSafeUser({ user, permissions: permissionsOf(user.userType) });
  if (options.limitedTo === "verification") return { ...safe, needsVerification: true };
  if (options.limitedTo === "twoFactorEnrolment") return { ...safe, needsTwoFactorEnrolment: true };
  return safe;
}

/** A limited session's user and what it is limited to (see {@link loadSessionUser}). */
export interface LimitedSession {
  user: User;
  to: SessionLimit;
}

/** Puts the session's user in place: a full session's, or a limited one's. */
function placeUser(res: Response, user: User, limit: SessionLimit | null): void {
  res.locals.user = limit ? null : user;
  res.locals.limited = limit ? ({ user, to: limit } satisfies LimitedSession) : null;
}

/**
 * What the session of `req` is limited to. A demo user's session begun by a role switch (issue 21)
 * is never limited to enrolling a second factor: it stands on the full sign-in of the mainAdmin who
 * switched, and the demo account has no password to protect.
 */
async function limitOf(deps: IdentityDeps, req: Request, user: User): Promise<SessionLimit | null> {
  const limit = await sessionLimitOf(deps.db, user);
  return limit === "twoFactorEnrolment" && req.session?.roleSwitchedBy !== undefined ? null : limit;
}

const SESSIONS_UNAVAILABLE = "Sessions are temporarily unavailable. Please try again shortly.";

/** Runs a session-store call; a failing store becomes 503 UNAVAILABLE. */
function promisify(run: (cb: (err?: unknown) => void) => void): Promise<void> {
  return new Promise((resolve, reject) =>
    run((err) =>
      err ? reject(new AppError("UNAVAILABLE", SESSIONS_UNAVAILABLE, { cause: err })) : resolve(),
    ),
  );
}

/** Runs a session-index call; a failing Redis becomes 503 UNAVAILABLE. */
async function indexed<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw new AppError("UNAVAILABLE", SESSIONS_UNAVAILABLE, { cause: err });
  }
}

/**
 * Loads the signed-in user of the request's session into `res.locals.user` (or null). A session past
 * its 12-hour absolute lifetime, whose user is gone or no longer active, granted before the user's
 * sessionsValidAfter (a password, status or type change, even if Redis missed the revocation), or
 * begun by a role switch that no longer holds (issue 21: in production, or its mainAdmin's authority
 * gone), is ended. A session whose user must still verify the email (the settings require a
 * verified one to sign in), or must enrol a second factor first (the settings require one, issue
 * 20), is limited: its user goes to `res.locals.limited` instead, read only by {@link sessionOwner}
 * and {@link requireEnrollingUser}, and everything that needs a signed-in user refuses it with
 * {@link limitRefusal}.
 */
export function loadSessionUser(deps: IdentityDeps): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    res.locals.user = null;
    res.locals.limited = null;
    try {
      const userId = req.session?.userId;
      if (userId === undefined) return next();
      const loginAt = req.session.loginAt ?? 0;
      const found =
        Date.now() - loginAt < SESSION_ABSOLUTE_MS ? await findSessionUser({ db: deps.db, userId }) : null;
      const issuedAt = req.session.issuedAt ?? loginAt;
      const revoked = found?.sessionsValidAfter ? issuedAt < found.sessionsValidAfter.getTime() : false;
      let user = found?.userStatus === "active" && !revoked ? found : null;
      // a role switch's session holds only while the role switcher exists and its mainAdmin may use it
      const switchedBy = req.session.roleSwitchedBy;
      if (user && switchedBy !== undefined) {
        const holds = await roleSwitchHolds({ cfg: deps.config, db: deps.db, user, switchedBy, issuedAt });
        if (!holds) user = null;
      }
      if (!user) {
        await deps.sessions.remove(userId, req.sessionID).catch(() => undefined);
        // the old session is destroyed and the request goes on with a fresh, empty one, as a
        // visitor without a cookie does (a step that keeps something in it, such as a passkey
        // sign-in's challenge, then has a session to keep it in)
        await promisify((cb) => req.session.regenerate(cb));
        res.clearCookie(SESSION_COOKIE, { path: "/" });
        return next();
      }
      placeUser(res, user, await limitOf(deps, req, user));
      next();
    } catch (err) {
      next(err);
    }
  };
}

/** The limited session of the request (see {@link loadSessionUser}), or null. */
export function limitedSession(res: Response): LimitedSession | null {
  const limited: unknown = res.locals.limited;
  return limited && typeof limited === "object" ? (limited as LimitedSession) : null;
}

/**
 * Whose session this is: the signed-in user, or the user whose session is limited. Only the steps
 * such a session may take read it (its own account, session check, verification, a new
 * verification link, two-factor enrolment, sign-out).
 */
export function sessionOwner(res: Response): User | null {
  return sessionUser(res) ?? limitedSession(res)?.user ?? null;
}

/**
 * The user who may set up two-factor sign-in: the signed-in user, or one whose session is limited
 * to enrolling. @throws AppError UNAUTHENTICATED, FORBIDDEN (needsVerification).
 */
export function requireEnrollingUser(res: Response): User {
  const limited = limitedSession(res);
  if (limited?.to === "twoFactorEnrolment") return limited.user;
  return requireUser(res);
}

/** The signed-in user loaded by {@link loadSessionUser}, or null. */
export function sessionUser(res: Response): User | null {
  const user: unknown = res.locals.user;
  return user && typeof user === "object" ? (user as User) : null;
}

/**
 * The signed-in user.
 * @throws AppError UNAUTHENTICATED when nobody is signed in, FORBIDDEN (needsVerification) when the
 * session is limited to verification.
 */
export function requireUser(res: Response): User {
  const user = sessionUser(res);
  if (user) return user;
  const limited = limitedSession(res);
  if (limited) throw limitRefusal(limited.to);
  throw new AppError("UNAUTHENTICATED", UNAUTHORIZED_MESSAGE);
}

/**
 * The owner of the session, verified or not: their own account as answers show it.
 * @throws AppError UNAUTHENTICATED when nobody is signed in.
 */
export function presentOwner(res: Response): SafeUser {
  const user = sessionUser(res);
  if (user) return present(user);
  const limited = limitedSession(res);
  if (limited) return present(limited.user, { limitedTo: limited.to });
  throw new AppError("UNAUTHENTICATED", UNAUTHORIZED_MESSAGE);
}

/**
 * Grants a session to `user`: a new session id (no fixation), userId and loginAt stored (kept from
 * the old session with `keepLoginAt`, so a renewal does not extend the 12-hour lifetime), the id
 * added to the user's session index. `roleSwitchedBy` marks a role switch's session (issue 21): the
 * mainAdmin behind it. @throws when the store fails.
 */
export async function startSession(
  deps: IdentityDeps,
  req: Request,
  res: Response,
  user: User,
  options: { keepLoginAt?: boolean; roleSwitchedBy?: number } = {},
): Promise<void> {
  const previous = req.session?.loginAt;
  await promisify((cb) => req.session.regenerate(cb));
  req.session.userId = user.id;
  req.session.loginAt = options.keepLoginAt && previous !== undefined ? previous : Date.now();
  req.session.issuedAt = Date.now();
  if (options.roleSwitchedBy === undefined) {
    // a session is granted on a proof of identity (a password, a second factor): changes to
    // two-factor sign-in need no other for the next minutes (twoFactorSteps.ts, FRESH_PROOF_MS)
    req.session.identityConfirmedAt = Date.now();
  } else {
    // a role switch proves nothing about the demo user: no fresh proof of identity
    req.session.roleSwitchedBy = options.roleSwitchedBy;
  }
  req.session.device = deviceLabel(req.get("user-agent"));
  req.session.ip = clientIp(req);
  // the session and its entry in the user's index are written together: one round trip, not two
  // (an index entry whose session failed to save is harmless: the index may name ended sessions)
  await Promise.all([
    promisify((cb) => req.session.save(cb)),
    indexed(() => deps.sessions.add(user.id, req.sessionID)),
  ]);
  // a new registrant whose email must be verified first gets a session for verification only; a
  // user whom the settings require to hold a second factor, and who holds none, one for enrolling
  placeUser(res, user, await limitOf(deps, req, user));
}

/**
 * Places the session's user again after a change to what limits it (a verified email, a second
 * factor enrolled): its session is a full one from this request on, or limited anew.
 */
export async function refreshSessionLimit(deps: IdentityDeps, res: Response, user: User): Promise<void> {
  placeUser(res, user, await limitOf(deps, res.req, user));
}

/**
 * Re-stamps the request's session after a change that set the user's sessionsValidAfter, so that
 * the session that made the change stays valid. @throws AppError UNAVAILABLE when the store fails.
 */
export async function restampSession(req: Request): Promise<void> {
  req.session.issuedAt = Date.now();
  await promisify((cb) => req.session.save(cb));
}

/** Ends the request's session (store entry destroyed, cookie cleared). @throws when the store fails. */
export async function endSession(deps: IdentityDeps, req: Request, res: Response): Promise<void> {
  const userId = req.session?.userId;
  if (userId !== undefined) await indexed(() => deps.sessions.remove(userId, req.sessionID));
  if (req.session) await promisify((cb) => req.session.destroy(cb));
  res.clearCookie(SESSION_COOKIE, { path: "/", httpOnly: true, sameSite: "lax" });
  res.locals.user = null;
  res.locals.limited = null;
}

/**
 * Ends the sessions of `userId` (after a password, status or type change), except `keepSid` (the
 * session of the person who made the change, when it is theirs). Returns how many ended. Never
 * throws: when the store or Redis fails, the user's sessionsValidAfter still refuses those sessions.
 */
export async function revokeSessions(deps: IdentityDeps, userId: number, keepSid?: string): Promise<number> {
  try {
    return await deps.sessions.revokeOthers({ store: deps.store, userId, keepSid });
  } catch (err) {
    // the change is committed and its sessionsValidAfter already refuses the old sessions
    log().warn({ err, userId }, "could not destroy a user's other sessions; they are refused on load");
    return 0;
  }
}

/** The client's address for rate limits and the audit log. */
export function clientIp(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? "unknown";
}
