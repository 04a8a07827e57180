import type { WebAuthnPurpose } from "@gateway/http/session";
import type { SafeUser, SecurityChallenge, TwoFactorChallenge } from "@schema/api/user";
import type { IdentityProofInput, SecondFactorInput } from "@schema/validation/twoFactor";
import { AppError } from "@services/shared/errors";
import type { User } from "@services/shared/generated/prisma/client";
import {
  addPasskey as addOwnPasskey,
  assertionOptions,
  confirmAuthenticator as confirmOwnAuthenticator,
  confirmIdentity as confirmOwnIdentity,
  findSessionUser,
  getTwoFactorStatus,
  type LoginOutcome,
  type PasskeyView,
  PENDING_TWO_FACTOR_MS,
  passkeyRegistrationOptions,
  type RelyingParty,
  signInSecondFactor,
  signInWithPasskey,
  type TwoFactorStatus,
} from "@services/user";
import type { Request, Response } from "express";
import { isKnownDevice, rememberDevice } from "./knownDevice";
import {
  clientIp,
  type IdentityDeps,
  presentOwner,
  refreshSessionLimit,
  requireEnrollingUser,
  startSession,
} from "./session";

// The session around two-factor sign-in (issue 20): the pending second step of a sign-in, the
// WebAuthn challenges (kept in the session, handed to the service once), and the fresh proof of
// identity that changes to two-factor sign-in need. REST shims and GraphQL resolvers call these.

/** How long a proof of identity lets the user change their two-factor sign-in. */
export const FRESH_PROOF_MS = 5 * 60 * 1000;

export const SIGN_IN_EXPIRED_MESSAGE = "Your sign-in has expired. Please sign in again.";
export const CONFIRM_IDENTITY_MESSAGE = "Confirm it's you to change two-factor sign-in.";

function save(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.save((err) => (err ? reject(err) : resolve())));
}

/**
 * The portal as the relying party of passkeys: PUBLIC_URL's host and origin, else the request's own
 * (development and tests).
 */
export function relyingParty(deps: IdentityDeps, req: Request): RelyingParty {
  const origin = deps.config.PUBLIC_URL
    ? new URL(deps.config.PUBLIC_URL).origin
    : `${req.protocol}://${req.get("host") ?? "localhost"}`;
  return { id: new URL(origin).hostname, origin };
}

/** Keeps a WebAuthn challenge in the session for `purpose`, as long as the ceremony may last. */
async function keepChallenge(req: Request, purpose: WebAuthnPurpose, challenge: string): Promise<void> {
  req.session.webauthn = { challenge, purpose, until: Date.now() + PENDING_TWO_FACTOR_MS };
  await save(req);
}

/** Takes the session's challenge for `purpose` out of it (used once), or null when there is none. */
async function takeChallenge(req: Request, purpose: WebAuthnPurpose): Promise<string | null> {
  const held = req.session?.webauthn;
  if (!held) return null;
  delete req.session.webauthn;
  await save(req);
  return held.purpose === purpose && Date.now() < held.until ? held.challenge : null;
}

/**
 * What a check of a factor takes from the request: the services, the relying party, the client's
 * address, and the challenge of the `purpose` ceremony (taken out of the session) for a passkey.
 */
async function checkOf(deps: IdentityDeps, req: Request, purpose: WebAuthnPurpose | null) {
  return {
    db: deps.db,
    limiter: deps.limiter,
    rp: relyingParty(deps, req),
    ip: clientIp(req),
    challenge: purpose === null ? null : await takeChallenge(req, purpose),
  };
}

/** Offers a passkey assertion for `purpose` (of `userId`'s passkeys, or any): its challenge kept. */
async function offerAssertion(
  deps: IdentityDeps,
  req: Request,
  purpose: WebAuthnPurpose,
  userId?: number,
): Promise<unknown> {
  const options = await assertionOptions({ db: deps.db, rp: relyingParty(deps, req), userId });
  await keepChallenge(req, purpose, options.challenge);
  return options;
}

/** The user whose sign-in waits for a second factor in this session. @throws AppError UNAUTHENTICATED. */
function pendingUserId(req: Request): number {
  const pending = req.session?.pendingTwoFactor;
  if (!pending || Date.now() >= pending.until) throw new AppError("UNAUTHENTICATED", SIGN_IN_EXPIRED_MESSAGE);
  return pending.userId;
}

/**
 * Answers a sign-in's outcome: a second factor to ask for (kept pending in the session for five
 * minutes), the enhanced level's question, or a new session with the spec's login body.
 * @throws when the store fails.
 */
export async function answerSignIn(
  deps: IdentityDeps,
  req: Request,
  res: Response,
  outcome: LoginOutcome,
): Promise<SafeUser | SecurityChallenge | TwoFactorChallenge> {
  rememberDevice(deps.config, req, res, outcome.user.id);
  if (outcome.kind === "twoFactor") {
    req.session.pendingSecurity = undefined;
    req.session.pendingTwoFactor = { userId: outcome.user.id, until: Date.now() + PENDING_TWO_FACTOR_MS };
    await save(req);
    return { twoFactorRequired: true, methods: outcome.methods };
  }
  if (outcome.kind === "challenge") {
    // the question itself is kept for the user (services/user/pendingQuestion.ts), not here
    req.session.pendingTwoFactor = undefined;
    req.session.pendingSecurity = { userId: outcome.user.id, until: outcome.until.getTime() };
    await save(req);
    return { needsSecurityAnswer: true, userId: outcome.user.id, question: outcome.question };
  }
  await startSession(deps, req, res, outcome.user);
  return presentOwner(res);
}

/**
 * The passkey options of the pending sign-in's second step.
 * @throws AppError UNAUTHENTICATED (no pending sign-in, or it expired).
 */
export async function secondFactorPasskeyOptions(deps: IdentityDeps, req: Request): Promise<unknown> {
  return offerAssertion(deps, req, "secondFactor", pendingUserId(req));
}

/**
 * Completes the pending sign-in with its second factor: the spec's login body (or the enhanced
 * level's question). The pending step ends with the sign-in.
 * @throws AppError UNAUTHENTICATED (expired), RATE_LIMITED; UserError TWO_FACTOR_FAILED...
 */
export async function completeTwoFactorSignIn(
  deps: IdentityDeps,
  req: Request,
  res: Response,
  input: SecondFactorInput,
): Promise<SafeUser | SecurityChallenge | TwoFactorChallenge> {
  const userId = pendingUserId(req);
  const check = await checkOf(deps, req, input.method === "passkey" ? "secondFactor" : null);
  const outcome = await signInSecondFactor({
    ...check,
    userId,
    proof: input,
    knownDevice: isKnownDevice(deps.config, req, userId),
  });
  return answerSignIn(deps, req, res, outcome);
}

/** The options of signing in with a passkey alone (any of the portal's passkeys). */
export async function passkeySignInOptions(deps: IdentityDeps, req: Request): Promise<unknown> {
  return offerAssertion(deps, req, "passkeySignIn");
}

/**
 * Signs in with a passkey alone: the spec's login body (or the enhanced level's question).
 * @throws AppError RATE_LIMITED; UserError TWO_FACTOR_FAILED, ACCOUNT_INACTIVE...
 */
export async function passkeySignIn(
  deps: IdentityDeps,
  req: Request,
  res: Response,
  response: unknown,
): Promise<SafeUser | SecurityChallenge | TwoFactorChallenge> {
  const outcome = await signInWithPasskey({ ...(await checkOf(deps, req, "passkeySignIn")), response });
  return answerSignIn(deps, req, res, outcome);
}

/** Until when the session's proof of identity lets its user change two-factor sign-in, or null. */
export function confirmedUntil(req: Request): Date | null {
  const at = req.session?.identityConfirmedAt;
  return at !== undefined && Date.now() < at + FRESH_PROOF_MS ? new Date(at + FRESH_PROOF_MS) : null;
}

/**
 * The enrolling user (see requireEnrollingUser) who proved who they are within FRESH_PROOF_MS.
 * @throws AppError FORBIDDEN (details.confirmIdentity) without a fresh proof; UNAUTHENTICATED.
 */
export function requireFreshProof(req: Request, res: Response): User {
  const user = requireEnrollingUser(res);
  if (!confirmedUntil(req)) {
    throw new AppError("FORBIDDEN", CONFIRM_IDENTITY_MESSAGE, { details: { confirmIdentity: true } });
  }
  return user;
}

/** The passkey options of a proof of identity (one of the user's own passkeys). */
export async function confirmIdentityPasskeyOptions(
  deps: IdentityDeps,
  req: Request,
  res: Response,
): Promise<unknown> {
  return offerAssertion(deps, req, "confirmIdentity", requireEnrollingUser(res).id);
}

/**
 * Proves the signed-in (or enrolling) user's identity again: for the next five minutes they may
 * change their two-factor sign-in. Returns until when.
 * @throws UserError WRONG_PASSWORD, INVALID_TWO_FACTOR_CODE; AppError RATE_LIMITED.
 */
export async function confirmIdentity(
  deps: IdentityDeps,
  req: Request,
  res: Response,
  input: IdentityProofInput,
): Promise<{ confirmedUntil: Date }> {
  const user = requireEnrollingUser(res);
  await confirmOwnIdentity({
    ...(await checkOf(deps, req, input.method === "passkey" ? "confirmIdentity" : null)),
    userId: user.id,
    proof: input,
    knownDevice: isKnownDevice(deps.config, req, user.id),
  });
  req.session.identityConfirmedAt = Date.now();
  await save(req);
  return { confirmedUntil: new Date(req.session.identityConfirmedAt + FRESH_PROOF_MS) };
}

/** The owner's two-factor page: their factors, and until when their proof of identity lasts. */
export async function twoFactorStatus(
  deps: IdentityDeps,
  req: Request,
  res: Response,
): Promise<TwoFactorStatus & { confirmedUntil: Date | null }> {
  const user = requireEnrollingUser(res);
  return { ...(await getTwoFactorStatus({ db: deps.db, user })), confirmedUntil: confirmedUntil(req) };
}

/** A new passkey's options (after a fresh proof). @throws AppError FORBIDDEN (confirmIdentity). */
export async function newPasskeyOptions(deps: IdentityDeps, req: Request, res: Response): Promise<unknown> {
  const user = requireFreshProof(req, res);
  const options = await passkeyRegistrationOptions({ db: deps.db, user, rp: relyingParty(deps, req) });
  await keepChallenge(req, "register", options.challenge);
  return options;
}

/** After a second factor is enrolled: a session limited to enrolling is a full one from now on. */
async function enrolled(deps: IdentityDeps, res: Response, userId: number): Promise<void> {
  const user = await findSessionUser({ db: deps.db, userId });
  if (user) await refreshSessionLimit(deps, res, user);
}

/**
 * Adds a passkey from the browser's answer to {@link newPasskeyOptions}.
 * @throws AppError FORBIDDEN (confirmIdentity); UserError INVALID_TWO_FACTOR_CODE.
 */
export async function addPasskey(
  deps: IdentityDeps,
  req: Request,
  res: Response,
  input: { name: string; response: unknown },
): Promise<{ passkey: PasskeyView; recoveryCodes: string[] | null }> {
  const user = requireFreshProof(req, res);
  const challenge = await takeChallenge(req, "register");
  const added = await addOwnPasskey({
    db: deps.db,
    user,
    rp: relyingParty(deps, req),
    name: input.name,
    response: input.response,
    challenge: challenge ?? "",
    ip: clientIp(req),
  });
  await enrolled(deps, res, user.id);
  return added;
}

/**
 * Confirms the authenticator being set up with a first code.
 * @throws AppError FORBIDDEN (confirmIdentity); UserError INVALID_TWO_FACTOR_CODE.
 */
export async function confirmAuthenticator(
  deps: IdentityDeps,
  req: Request,
  res: Response,
  code: string,
): Promise<{ recoveryCodes: string[] | null }> {
  const user = requireFreshProof(req, res);
  const confirmed = await confirmOwnAuthenticator({ db: deps.db, user, code, ip: clientIp(req) });
  await enrolled(deps, res, user.id);
  return confirmed;
}
