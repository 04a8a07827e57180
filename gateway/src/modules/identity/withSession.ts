import { callerOf } from "@gateway/auth/actor";
import type { SafeUser, SecurityChallenge, TwoFactorChallenge } from "@schema/api/user";
import type {
  changePasswordSchema,
  Registration,
  resetConfirmSchema,
  securityAnswersSchema,
} from "@schema/validation/user";
import { AppError } from "@services/shared/errors";
import type { User } from "@services/shared/generated/prisma/client";
import {
  isPortalSessionStore,
  markNotActivity,
  type PortalSessionStore,
} from "@services/shared/sessionStore";
import {
  answerSecurityQuestions as answerQuestions,
  changeOwnPassword as changeOwn,
  confirmEmail as confirmEmailToken,
  confirmPasswordReset as confirmReset,
  ROLE_SWITCH_ABSENT_MESSAGE,
  readSecurityQuestions as readQuestions,
  recordSignOut,
  signIn as signInUser,
  signUp,
  switchToDemoUser,
} from "@services/user";
import type { Request, Response } from "express";
import type { z } from "zod";
import { isKnownDevice } from "./knownDevice";
import { roleSwitcherExists, roleSwitcherOf } from "./roleSwitchRule";
import {
  clientIp,
  endSession,
  type IdentityDeps,
  presentOwner,
  refreshSessionLimit,
  requireUser,
  restampSession,
  revokeSessions,
  sessionOwner,
  sessionUser,
  startSession,
} from "./session";
import { answerSignIn } from "./twoFactorSteps";

// The identity steps whose outcome is a session: each calls the user service's use case (rate
// limits, audit, the rule) and then starts, renews or ends the request's session and its cookies.
// REST shims and GraphQL resolvers parse their input, call one of these and present the result.

/**
 * Grants `user` a new session and answers with the user (marked needsVerification when the session
 * is limited to verification). @throws when the store fails.
 */
async function grant(deps: IdentityDeps, req: Request, res: Response, user: User): Promise<SafeUser> {
  await startSession(deps, req, res, user);
  return presentOwner(res);
}

/** Whether this session passed the password of `userId`'s enhanced sign-in, still pending. */
function pendingFor(req: Request, userId: number): boolean {
  const pending = req.session?.pendingSecurity;
  return pending?.userId === userId && Date.now() < pending.until;
}

/**
 * Signs in with a username or email and a password: a new session, or a second factor to give
 * first (issue 20), or (enhanced security) a question to answer first, remembered in the session.
 * @throws AppError RATE_LIMITED; UserError from the sign-in.
 */
export async function signIn(
  deps: IdentityDeps,
  req: Request,
  res: Response,
  input: { login: string; password: string },
): Promise<SafeUser | SecurityChallenge | TwoFactorChallenge> {
  const outcome = await signInUser({
    db: deps.db,
    limiter: deps.limiter,
    login: input.login,
    password: input.password,
    ip: clientIp(req),
    knownDevice: (userId) => isKnownDevice(deps.config, req, userId),
  });
  return answerSignIn(deps, req, res, outcome);
}

/**
 * Registers and signs the new user in at once (spec §4).
 * @throws AppError RATE_LIMITED; UserError from registerUser.
 */
export async function register(
  deps: IdentityDeps,
  req: Request,
  res: Response,
  input: Registration,
): Promise<SafeUser> {
  const user = await signUp({ db: deps.db, limiter: deps.limiter, input, ip: clientIp(req) });
  return grant(deps, req, res, user);
}

/**
 * Signs out: the session is destroyed and its cookie cleared; a signed-in user's sign-out is audited.
 * @throws when the store fails.
 */
export async function signOut(deps: IdentityDeps, req: Request, res: Response): Promise<void> {
  const user = sessionOwner(res);
  await endSession(deps, req, res);
  if (user) await recordSignOut({ db: deps.db, userId: user.id });
}

/**
 * Sets a new password with a reset token and ends every session of that user (a signed-in user
 * resetting their own password keeps this one).
 * @throws AppError RATE_LIMITED; UserError INVALID_RESET_TOKEN, COMMON_PASSWORD.
 */
export async function confirmPasswordReset(
  deps: IdentityDeps,
  req: Request,
  input: z.output<typeof resetConfirmSchema>,
): Promise<{ message: string }> {
  const user = await confirmReset({
    db: deps.db,
    limiter: deps.limiter,
    token: input.token,
    password: input.password,
    ip: clientIp(req),
  });
  // a signed-in user resetting their own password keeps this session; every other one ends
  const own = req.session?.userId === user.id;
  if (own) await restampSession(req);
  await revokeSessions(deps, user.id, own ? req.sessionID : undefined);
  return { message: "Password updated" };
}

/**
 * Verifies an email with its token; the signed-in user's own verification shows at once.
 * @throws AppError RATE_LIMITED; UserError INVALID_VERIFICATION_TOKEN.
 */
export async function confirmEmail(
  deps: IdentityDeps,
  req: Request,
  res: Response,
  token: string,
): Promise<{ message: string; emailVerified: true }> {
  const user = await confirmEmailToken({ db: deps.db, limiter: deps.limiter, token, ip: clientIp(req) });
  if (sessionOwner(res)?.id === user.id) {
    // verified: a session that was limited to verification is a full one from now on (or, when
    // the settings require a second factor it lacks, one for enrolling)
    await refreshSessionLimit(deps, res, user);
  }
  return { message: "Email verified", emailVerified: true };
}

/**
 * A user's security questions: for themselves, manage:users (a mainAdmin's only for a mainAdmin),
 * or the user whose enhanced sign-in is pending in this session.
 * @throws AppError UNAUTHENTICATED, FORBIDDEN; UserError NO_SECURITY_QUESTIONS.
 */
export async function readSecurityQuestions(
  deps: IdentityDeps,
  req: Request,
  res: Response,
  userId: number,
): Promise<{ userId: number; questions: string[] }> {
  return readQuestions({
    db: deps.db,
    actor: callerOf(res),
    userId,
    pendingSignIn: pendingFor(req, userId),
  });
}

/**
 * Checks security answers: completes a pending enhanced sign-in (a new session, the user), or for a
 * signed-in user confirms their identity.
 * @throws AppError RATE_LIMITED, UNAUTHENTICATED; UserError SECURITY_VERIFICATION_FAILED.
 */
export async function answerSecurityQuestions(
  deps: IdentityDeps,
  req: Request,
  res: Response,
  input: z.output<typeof securityAnswersSchema>,
): Promise<SafeUser | { verified: true }> {
  const outcome = await answerQuestions({
    db: deps.db,
    limiter: deps.limiter,
    userId: input.userId,
    answers: input.answers,
    callerId: sessionUser(res)?.id,
    pending: pendingFor(req, input.userId),
    ip: clientIp(req),
  });
  if (outcome.kind === "verified") return { verified: true };
  return grant(deps, req, res, outcome.user);
}

/**
 * The signed-in user changes their password; on success the caller's session gets a new id and
 * every other session ends.
 * @throws AppError UNAUTHENTICATED, RATE_LIMITED; UserError WRONG_PASSWORD, COMMON_PASSWORD.
 */
export async function changeOwnPassword(
  deps: IdentityDeps,
  req: Request,
  res: Response,
  input: z.output<typeof changePasswordSchema>,
): Promise<{ message: string }> {
  const signedIn = requireUser(res);
  const user = await changeOwn({
    db: deps.db,
    limiter: deps.limiter,
    userId: signedIn.id,
    currentPassword: input.currentPassword,
    newPassword: input.newPassword,
    ip: clientIp(req),
    knownDevice: isKnownDevice(deps.config, req, signedIn.id),
  });
  const oldSid = req.sessionID;
  await revokeSessions(deps, user.id, oldSid);
  await startSession(deps, req, res, user, { keepLoginAt: true });
  await deps.sessions.remove(user.id, oldSid).catch(() => undefined);
  return { message: "Password updated" };
}

/**
 * The role switcher (issue 21, never in production): signs the request's session in as the demo user
 * `userId`, on the authority of a mainAdmin (the caller, or the one behind a session an earlier
 * switch began). The session gets a new id, keeps its sign-in time (a switch never lengthens the
 * 12-hour lifetime) and names that mainAdmin; the switch is audited.
 * @throws AppError NOT_FOUND in production (as a path nothing answers), UNAUTHENTICATED, FORBIDDEN;
 * UserError USER_NOT_FOUND when `userId` is not an active demo user.
 */
export async function switchToDemoRole(
  deps: IdentityDeps,
  req: Request,
  res: Response,
  userId: number,
): Promise<SafeUser> {
  if (!roleSwitcherExists(deps.config)) throw new AppError("NOT_FOUND", ROLE_SWITCH_ABSENT_MESSAGE);
  // a limited session (verifying its email, enrolling a second factor) is told why it is refused
  const caller = sessionOwner(res) ? requireUser(res) : null;
  const switchedBy = req.session?.roleSwitchedBy;
  const switcher = await roleSwitcherOf({ db: deps.db, caller, switchedBy });
  const previousUserId = caller?.id ?? switcher.id;
  const user = await switchToDemoUser({ db: deps.db, userId, switchedBy: switcher.id, previousUserId });
  const oldSid = req.sessionID;
  await startSession(deps, req, res, user, { keepLoginAt: true, roleSwitchedBy: switcher.id });
  await deps.sessions.remove(previousUserId, oldSid).catch(() => undefined);
  return presentOwner(res);
}

/**
 * Whether the request's session is signed in, and when it expires. A check is not activity: the
 * session keeps the expiry it had (no rolling renewal), so the 30-minute idle rule holds.
 * @throws AppError UNAUTHENTICATED 'Session expired'.
 */
export async function checkSession(
  req: Request,
  res: Response,
): Promise<{ active: true; expiresAt: string }> {
  if (!sessionOwner(res)) throw new AppError("UNAUTHENTICATED", "Session expired");
  // a check is not activity: the idle expiry stays where the last real request put it
  markNotActivity(req.session);
  const store = req.sessionStore;
  const remaining = isPortalSessionStore(store) ? await remainingMs(store, req.sessionID) : null;
  if (remaining === null) throw new AppError("UNAUTHENTICATED", "Session expired");
  return { active: true, expiresAt: new Date(Date.now() + remaining).toISOString() };
}

/** A session's remaining idle time; a failing store becomes 503 UNAVAILABLE. */
async function remainingMs(store: PortalSessionStore, sid: string): Promise<number | null> {
  try {
    return await store.remainingMs(sid);
  } catch (err) {
    throw new AppError("UNAVAILABLE", "Sessions are temporarily unavailable. Please try again shortly.", {
      cause: err,
    });
  }
}
