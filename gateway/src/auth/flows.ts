import type { SafeUser, SecurityChallenge } from "@schema/api/user";
import type {
  changePasswordSchema,
  Registration,
  resetConfirmSchema,
  securityAnswersSchema,
  securityQuestionsSchema,
} from "@schema/validation/user";
import { audit } from "@services/shared/audit";
import { AppError } from "@services/shared/errors";
import type { AccessLevel, UserStatus, UserType } from "@services/shared/generated/prisma/enums";
import {
  isPortalSessionStore,
  markNotActivity,
  type PortalSessionStore,
} from "@services/shared/sessionStore";
import {
  changeAccessLevel,
  changePassword,
  changeUserStatus,
  changeUserType,
  findLoginAccount,
  findUserByUniqueId,
  getSecurityQuestions,
  loginUser,
  recordLogin,
  registerUser,
  requestPasswordReset,
  resendVerification,
  resetPassword,
  setSecurityQuestions,
  type UserCard,
  UserError,
  updateNotes,
  verifyEmail,
  verifySecurityAnswers,
} from "@services/user";
import type { Request, Response } from "express";
import type { z } from "zod";
import {
  clientIp,
  endSession,
  type IdentityDeps,
  present,
  requireUser,
  restampSession,
  revokeSessions,
  sessionUser,
  startSession,
} from "./identity";
import { isKnownDevice, rememberDevice } from "./knownDevice";
import { permissionsOf } from "./permissions";

// The identity operations as both surfaces run them: rate limits, the use case, the session. REST
// handlers and GraphQL resolvers parse their input, call one of these and present the result.

/** How long an enhanced login may wait for its security answer. */
const PENDING_SECURITY_MS = 10 * 60 * 1000;

/**
 * Signs in with a username or email and a password: a new session, or (enhanced security) a
 * question to answer first.
 * @throws AppError RATE_LIMITED; UserError from loginUser.
 */
export async function signIn(
  deps: IdentityDeps,
  req: Request,
  res: Response,
  input: { login: string; password: string },
): Promise<SafeUser | SecurityChallenge> {
  const ip = clientIp(req);
  // a used-up IP window refuses every attempt, so the answer never tells a right password apart
  const [account] = await Promise.all([
    findLoginAccount({ db: deps.db, login: input.login }),
    deps.limiter.check("loginIp", ip),
  ]);
  const accountKey = account ? `user:${account.id}` : `login:${input.login.trim().toLowerCase()}`;
  const pairKey = `${accountKey}|${ip}`;
  await Promise.all([
    // failures from everywhere slow unknown devices only: the owner's known browser is exempt
    account && isKnownDevice(deps.config, req, account.id)
      ? undefined
      : deps.limiter.checkBackoff("loginAccountAny", accountKey),
    deps.limiter.checkBackoff("loginAccount", pairKey),
  ]);
  let outcome: Awaited<ReturnType<typeof loginUser>>;
  try {
    outcome = await loginUser({ db: deps.db, login: input.login, password: input.password, ip, account });
  } catch (err) {
    if (
      err instanceof UserError &&
      (err.code === "INVALID_CREDENTIALS" || err.code === "ACCOUNT_NOT_FOUND")
    ) {
      await deps.limiter.fail("loginAccount", pairKey);
      await deps.limiter.fail("loginAccountAny", accountKey);
      // this failure is answered as it is; the used-up window refuses the next attempt
      await deps.limiter.consume("loginIp", ip).catch((limitErr: unknown) => {
        if (!(limitErr instanceof AppError && limitErr.code === "RATE_LIMITED")) throw limitErr;
      });
    }
    throw err;
  }
  await deps.limiter.succeed(["loginAccount", pairKey], ["loginAccountAny", accountKey]);
  rememberDevice(deps.config, req, res, outcome.user.id);
  if (outcome.kind === "challenge") {
    req.session.pendingSecurity = {
      userId: outcome.user.id,
      questionIndex: outcome.question.index,
      at: Date.now(),
    };
    await new Promise<void>((resolve, reject) => req.session.save((err) => (err ? reject(err) : resolve())));
    return { needsSecurityAnswer: true, userId: outcome.user.id, question: outcome.question };
  }
  await startSession(deps, req, res, outcome.user);
  return present(outcome.user);
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
  const ip = clientIp(req);
  await deps.limiter.consume("register", ip);
  const user = await registerUser({ db: deps.db, input, ip });
  await startSession(deps, req, res, user);
  return present(user);
}

/**
 * Signs out: the session is destroyed and its cookie cleared; a signed-in user's sign-out is audited.
 * @throws when the store fails.
 */
export async function signOut(deps: IdentityDeps, req: Request, res: Response): Promise<void> {
  const user = sessionUser(res);
  await endSession(deps, req, res);
  if (user) {
    await audit(deps.db.prisma, {
      action: "user.logged_out",
      actorId: user.id,
      targetType: "user",
      targetId: user.id,
    });
  }
}

/** Asks for a reset link (same answer whether or not the account exists). @throws AppError RATE_LIMITED. */
export async function askPasswordReset(
  deps: IdentityDeps,
  req: Request,
  email: string,
): Promise<{ message: string }> {
  await deps.limiter.consume("resetIp", clientIp(req));
  await deps.limiter.consume("resetEmail", email.trim().toLowerCase());
  return requestPasswordReset({ db: deps.db, email });
}

/**
 * Sends a new verification link to `email`, or to the signed-in user's address when none is given;
 * the same answer whether or not an unverified account has the address.
 * @throws AppError RATE_LIMITED; VALIDATION_FAILED when signed out and no email is given.
 */
export async function askVerificationEmail(
  deps: IdentityDeps,
  req: Request,
  res: Response,
  email: string | undefined,
): Promise<{ message: string }> {
  const address = email ?? sessionUser(res)?.email;
  if (!address) throw new AppError("VALIDATION_FAILED", "Please enter a valid email address");
  await deps.limiter.consume("resetIp", clientIp(req));
  await deps.limiter.consume("resetEmail", `verify:${address.trim().toLowerCase()}`);
  return resendVerification({ db: deps.db, email: address });
}

/**
 * Sets a new password with a reset token and ends every session of that user (including the
 * request's own, which belonged to nobody or to someone else).
 * @throws AppError RATE_LIMITED; UserError INVALID_RESET_TOKEN, COMMON_PASSWORD.
 */
export async function confirmPasswordReset(
  deps: IdentityDeps,
  req: Request,
  input: z.output<typeof resetConfirmSchema>,
): Promise<{ message: string }> {
  await deps.limiter.consume("verifyIp", clientIp(req));
  const user = await resetPassword({
    db: deps.db,
    token: input.token,
    password: input.password,
    ip: clientIp(req),
  });
  // whoever holds the emailed link is the owner: their sign-in is not slowed by others' failures
  await deps.limiter.succeed(["loginAccountAny", `user:${user.id}`]);
  // a signed-in user resetting their own password keeps this session; every other one ends
  const own = req.session?.userId === user.id;
  if (own) await restampSession(req);
  await revokeSessions(deps, user.id, own ? req.sessionID : undefined);
  return { message: "Password updated" };
}

/** Verifies an email with its token. @throws AppError RATE_LIMITED; UserError INVALID_VERIFICATION_TOKEN. */
export async function confirmEmail(
  deps: IdentityDeps,
  req: Request,
  res: Response,
  token: string,
): Promise<{ message: string; emailVerified: true }> {
  await deps.limiter.consume("verifyIp", clientIp(req));
  const user = await verifyEmail({ db: deps.db, token });
  if (sessionUser(res)?.id === user.id) res.locals.user = user;
  return { message: "Email verified", emailVerified: true };
}

/**
 * Whether the signed-in user may read `userId`'s security questions: themselves, or manage:users
 * following the mainAdmin rule (only a mainAdmin acts on a mainAdmin).
 */
async function mayReadQuestions(deps: IdentityDeps, res: Response, userId: number): Promise<boolean> {
  const user = sessionUser(res);
  if (!user) return false;
  if (user.id === userId) return true;
  if (!permissionsOf(user.userType).includes("manage:users")) return false;
  const target = await deps.db.prisma.user.findUnique({ where: { id: userId }, select: { userType: true } });
  return target?.userType !== "mainAdmin" || user.userType === "mainAdmin";
}

/**
 * Saves the signed-in user's own security questions (nobody sets them for someone else: the
 * answers are the owner's secret).
 * @throws AppError UNAUTHENTICATED, FORBIDDEN; UserError USER_NOT_FOUND.
 */
export async function saveSecurityQuestions(
  deps: IdentityDeps,
  req: Request,
  res: Response,
  input: z.output<typeof securityQuestionsSchema>,
): Promise<{ message: string }> {
  const actor = requireUser(res);
  if (actor.id !== input.userId)
    throw new AppError("FORBIDDEN", "You may only set your own security questions");
  await setSecurityQuestions({
    db: deps.db,
    actorId: actor.id,
    userId: input.userId,
    questions: input.questions,
    ip: clientIp(req),
  });
  return { message: "Security questions saved" };
}

/**
 * A user's security questions: for themselves, manage:users (a mainAdmin's only for a mainAdmin),
 * or the user whose enhanced login is pending in this session.
 * @throws AppError FORBIDDEN (UNAUTHENTICATED when nobody is signed in or pending); UserError
 * NO_SECURITY_QUESTIONS.
 */
export async function readSecurityQuestions(
  deps: IdentityDeps,
  req: Request,
  res: Response,
  userId: number,
): Promise<{ userId: number; questions: string[] }> {
  const pending = req.session?.pendingSecurity;
  const pendingHere = pending?.userId === userId && Date.now() - pending.at < PENDING_SECURITY_MS;
  if (!pendingHere) {
    if (!sessionUser(res)) throw new AppError("UNAUTHENTICATED", "Unauthorized - Please log in");
    if (!(await mayReadQuestions(deps, res, userId))) {
      throw new AppError("FORBIDDEN", "You may not read these security questions");
    }
  }
  return getSecurityQuestions({ db: deps.db, userId });
}

/**
 * Checks security answers: completes a pending enhanced login (a new session, the user), or for a
 * signed-in user confirms their identity.
 * @throws AppError RATE_LIMITED, UNAUTHENTICATED; UserError SECURITY_VERIFICATION_FAILED.
 */
export async function answerSecurityQuestions(
  deps: IdentityDeps,
  req: Request,
  res: Response,
  input: z.output<typeof securityAnswersSchema>,
): Promise<SafeUser | { verified: true }> {
  const signedIn = sessionUser(res);
  const pending = req.session?.pendingSecurity;
  const pendingHere = pending?.userId === input.userId && Date.now() - pending.at < PENDING_SECURITY_MS;
  if (!pendingHere && signedIn?.id !== input.userId) {
    throw new AppError("UNAUTHENTICATED", "Security verification failed");
  }
  const key = String(input.userId);
  await deps.limiter.checkBackoff("securityAnswers", key);
  try {
    await verifySecurityAnswers({
      db: deps.db,
      userId: input.userId,
      answers: input.answers,
      requiredIndex: pendingHere ? pending?.questionIndex : undefined,
      ip: clientIp(req),
    });
  } catch (err) {
    await deps.limiter.fail("securityAnswers", key);
    throw err;
  }
  await deps.limiter.succeed(["securityAnswers", key]);
  if (!pendingHere) return { verified: true };
  const user = await recordLogin({
    db: deps.db,
    user: await deps.db.prisma.user.findUniqueOrThrow({ where: { id: input.userId } }),
    ip: clientIp(req),
  });
  await startSession(deps, req, res, user);
  return present(user);
}

/**
 * The signed-in user changes their password: the current one is checked under the same account
 * backoff as sign-in; on success the caller's session gets a new id and every other session ends.
 * @throws AppError UNAUTHENTICATED, RATE_LIMITED; UserError WRONG_PASSWORD, COMMON_PASSWORD.
 */
export async function changeOwnPassword(
  deps: IdentityDeps,
  req: Request,
  res: Response,
  input: z.output<typeof changePasswordSchema>,
): Promise<{ message: string }> {
  const signedIn = requireUser(res);
  const ip = clientIp(req);
  const accountKey = `user:${signedIn.id}`;
  const pairKey = `${accountKey}|${ip}`;
  if (!isKnownDevice(deps.config, req, signedIn.id)) {
    await deps.limiter.checkBackoff("loginAccountAny", accountKey);
  }
  await deps.limiter.checkBackoff("loginAccount", pairKey);
  let user: Awaited<ReturnType<typeof changePassword>>;
  try {
    user = await changePassword({
      db: deps.db,
      userId: signedIn.id,
      currentPassword: input.currentPassword,
      newPassword: input.newPassword,
      ip,
    });
  } catch (err) {
    if (err instanceof UserError && err.code === "WRONG_PASSWORD") {
      await deps.limiter.fail("loginAccount", pairKey);
      await deps.limiter.fail("loginAccountAny", accountKey);
    }
    throw err;
  }
  await deps.limiter.succeed(["loginAccount", pairKey], ["loginAccountAny", accountKey]);
  const oldSid = req.sessionID;
  await revokeSessions(deps, user.id, oldSid);
  await startSession(deps, req, res, user, { keepLoginAt: true });
  await deps.sessions.remove(user.id, oldSid).catch(() => undefined);
  return { message: "Password updated" };
}

/**
 * The console's card of a user by unique id: one's own, or anyone's with manage:users or
 * manage:esrt_sync (others learn nothing, not even whether the id exists). The Pro app's API keys
 * read it too (gateway/src/rest/esrt.ts).
 * @throws AppError UNAUTHENTICATED, FORBIDDEN; UserError USER_NOT_FOUND.
 */
export async function lookUpByUniqueId(
  deps: IdentityDeps,
  res: Response,
  uniqueId: string,
): Promise<UserCard> {
  const user = requireUser(res);
  const held = permissionsOf(user.userType);
  const manager = held.includes("manage:users") || held.includes("manage:esrt_sync");
  if (!manager && uniqueId !== user.uniqueId) {
    throw new AppError("FORBIDDEN", "You may only look up your own account");
  }
  return findUserByUniqueId({ db: deps.db, uniqueId });
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
  if (!sessionUser(res)) throw new AppError("UNAUTHENTICATED", "Session expired");
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

/** Saves the signed-in user's console note. @throws AppError UNAUTHENTICATED; UserError NOT_ALLOWED. */
export async function saveNotes(
  deps: IdentityDeps,
  res: Response,
  notes: string,
): Promise<{ notes: string; wordCount: number; message: string }> {
  const user = requireUser(res);
  const saved = await updateNotes({ db: deps.db, userId: user.id, notes });
  return { ...saved, message: "Notes saved" };
}

/**
 * An administrator (manage:users) changes a user's status; the user's sessions end.
 * @throws AppError UNAUTHENTICATED, FORBIDDEN; UserError USER_NOT_FOUND, NOT_ALLOWED.
 */
export async function adminChangeStatus(
  deps: IdentityDeps,
  req: Request,
  res: Response,
  input: { userId: number; status: UserStatus },
): Promise<SafeUser> {
  const actor = requireManager(res);
  const user = await changeUserStatus({
    db: deps.db,
    actor,
    userId: input.userId,
    status: input.status,
    ip: clientIp(req),
  });
  await revokeSessions(deps, user.id);
  return present(user);
}

/**
 * An administrator (manage:users) changes a user's type; the user's sessions go on and carry the
 * new type's rights from their next request (the session user is read on every request).
 * @throws AppError UNAUTHENTICATED, FORBIDDEN; UserError USER_NOT_FOUND, NOT_ALLOWED.
 */
export async function adminChangeType(
  deps: IdentityDeps,
  req: Request,
  res: Response,
  input: { userId: number; userType: UserType },
): Promise<SafeUser> {
  const actor = requireManager(res);
  const user = await changeUserType({
    db: deps.db,
    actor,
    userId: input.userId,
    userType: input.userType,
    ip: clientIp(req),
  });
  return present(user);
}

/**
 * A user administrator (manage:users) sets a user's Pro-app access level; it changes nothing inside
 * the portal, so the user's sessions go on.
 * @throws AppError UNAUTHENTICATED, FORBIDDEN; UserError USER_NOT_FOUND, NOT_ALLOWED.
 */
export async function adminChangeAccessLevel(
  deps: IdentityDeps,
  req: Request,
  res: Response,
  input: { userId: number; accessLevel: AccessLevel },
): Promise<SafeUser> {
  const actor = requireManager(res);
  const user = await changeAccessLevel({
    db: deps.db,
    actor,
    userId: input.userId,
    accessLevel: input.accessLevel,
    ip: clientIp(req),
  });
  return present(user);
}

/** The signed-in user, who must hold manage:users. @throws AppError UNAUTHENTICATED, FORBIDDEN. */
export function requireManager(res: Response) {
  const actor = requireUser(res);
  if (!permissionsOf(actor.userType).includes("manage:users")) {
    throw new AppError("FORBIDDEN", "You don't have the necessary permissions to access this area.");
  }
  return actor;
}
