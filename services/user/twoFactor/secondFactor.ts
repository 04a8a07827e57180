import type { Db, Tx } from "@services/shared/db";
import type { RateLimiter } from "@services/shared/rateLimit";
import { attemptUnderLimits } from "../accountAttempt";
import { TWO_FACTOR_FAILED_MESSAGE, UserError } from "../errors";
import { auditFailedSignIn, completeSignIn, type LoginOutcome } from "../loginUser";
import { verifyPassword } from "../passwords";
import { spendAuthenticatorCode } from "./authenticator";
import { invalidCode } from "./changes";
import { type RelyingParty, spendAssertion } from "./passkeys";
import { spendRecoveryCode } from "./recoveryCodes";

// The second step of a sign-in, signing in with a passkey alone, and the fresh proof of identity
// that changes to two-factor sign-in need. The gateway keeps the pending step (5 minutes) and each
// WebAuthn challenge in the session and hands a challenge over once: it is never used twice.

/** A second factor as a sign-in or a proof of identity gives it. */
export type SecondFactorProof =
  | { method: "totp"; code: string }
  | { method: "recovery_code"; code: string }
  | { method: "passkey"; response: unknown };

/** How long a password-accepted sign-in waits for its second factor. */
export const PENDING_TWO_FACTOR_MS = 5 * 60 * 1000;

export const PASSKEY_SIGN_IN_FAILED_MESSAGE =
  "That passkey could not sign you in. Try again, or sign in with your password.";

/**
 * Whether `proof` is a second factor of `userId`, spending it (an authenticator code's step, a
 * recovery code, a passkey's counter) in the caller's transaction.
 */
async function spendSecondFactor(
  tx: Tx,
  props: { userId: number; proof: SecondFactorProof; rp: RelyingParty; challenge: string | null },
): Promise<boolean> {
  const { proof, userId } = props;
  switch (proof.method) {
    case "totp":
      return spendAuthenticatorCode(tx, { userId, code: proof.code });
    case "recovery_code":
      return spendRecoveryCode(tx, userId, proof.code);
    case "passkey":
      if (props.challenge === null) return false;
      return (
        (await spendAssertion(tx, {
          rp: props.rp,
          response: proof.response,
          challenge: props.challenge,
          userId,
        })) !== null
      );
  }
}

const isTwoFactorFailure = (err: unknown) => err instanceof UserError && err.code === "TWO_FACTOR_FAILED";

/**
 * Completes a sign-in whose password was accepted with its second factor, under the sign-in
 * limits (a wrong code counts as a wrong password does). Then the account is admitted again (its
 * status may have changed meanwhile) and the sign-in finishes: granted, or the enhanced level's
 * question.
 * @throws UserError TWO_FACTOR_FAILED (the factor did not hold), ACCOUNT_INACTIVE...; AppError
 * RATE_LIMITED.
 */
export async function signInSecondFactor(props: {
  db: Db;
  limiter: RateLimiter;
  userId: number;
  proof: SecondFactorProof;
  rp: RelyingParty;
  /** the passkey challenge the session held, taken out of it */
  challenge: string | null;
  ip: string;
  knownDevice: boolean;
}): Promise<Exclude<LoginOutcome, { kind: "twoFactor" }>> {
  const { db } = props;
  await attemptUnderLimits({ ...props, ipWindow: true }, isTwoFactorFailure, async () => {
    const held = await db.prisma.$transaction((tx) => spendSecondFactor(tx, props));
    if (!held) {
      await auditFailedSignIn(db, props.userId, `wrong_${props.proof.method}`, props.ip);
      throw new UserError("TWO_FACTOR_FAILED", TWO_FACTOR_FAILED_MESSAGE);
    }
  });
  const user = await db.prisma.user.findUnique({ where: { id: props.userId } });
  if (!user) throw new UserError("TWO_FACTOR_FAILED", TWO_FACTOR_FAILED_MESSAGE);
  return completeSignIn({ db, user, ip: props.ip });
}

/**
 * Signs in with a passkey alone (it proves both possession and, by the authenticator's PIN or
 * biometrics, its user): counted in the address's sign-in window, then the account admitted and the
 * sign-in finished as after a password and second factor.
 * @throws UserError TWO_FACTOR_FAILED (PASSKEY_SIGN_IN_FAILED_MESSAGE), ACCOUNT_INACTIVE...; AppError
 * RATE_LIMITED.
 */
export async function signInWithPasskey(props: {
  db: Db;
  limiter: RateLimiter;
  response: unknown;
  rp: RelyingParty;
  challenge: string | null;
  ip: string;
}): Promise<Exclude<LoginOutcome, { kind: "twoFactor" }>> {
  const { db, challenge } = props;
  const slot = await props.limiter.consume("loginIp", props.ip);
  const passkey =
    challenge === null
      ? null
      : await db.prisma.$transaction((tx) =>
          spendAssertion(tx, { rp: props.rp, response: props.response, challenge }),
        );
  if (!passkey) throw new UserError("TWO_FACTOR_FAILED", PASSKEY_SIGN_IN_FAILED_MESSAGE);
  await slot.release();
  const user = await db.prisma.user.findUnique({ where: { id: passkey.userId } });
  if (!user) throw new UserError("TWO_FACTOR_FAILED", PASSKEY_SIGN_IN_FAILED_MESSAGE);
  return completeSignIn({ db, user, ip: props.ip });
}

/** A fresh proof of identity: the password, or a second factor. */
export type IdentityProof = { method: "password"; password: string } | SecondFactorProof;

export const WRONG_PASSWORD_MESSAGE = "The password is incorrect";

/**
 * Checks a signed-in user's fresh proof of identity before a change to their two-factor sign-in,
 * under the sign-in limits.
 * @throws UserError WRONG_PASSWORD (details.errors.password), INVALID_TWO_FACTOR_CODE
 * (details.errors.code); AppError RATE_LIMITED.
 */
export async function confirmIdentity(props: {
  db: Db;
  limiter: RateLimiter;
  userId: number;
  proof: IdentityProof;
  rp: RelyingParty;
  challenge: string | null;
  ip: string;
  knownDevice: boolean;
}): Promise<void> {
  const { db, proof } = props;
  const isFailure = (err: unknown) =>
    err instanceof UserError && (err.code === "WRONG_PASSWORD" || err.code === "INVALID_TWO_FACTOR_CODE");
  await attemptUnderLimits(props, isFailure, async () => {
    if (proof.method === "password") {
      const row = await db.prisma.user.findUnique({
        where: { id: props.userId },
        select: { password: true },
      });
      if (!row || !(await verifyPassword(row.password, proof.password))) {
        throw new UserError("WRONG_PASSWORD", WRONG_PASSWORD_MESSAGE, {
          errors: { password: [WRONG_PASSWORD_MESSAGE] },
        });
      }
      return;
    }
    const held = await db.prisma.$transaction((tx) =>
      spendSecondFactor(tx, { userId: props.userId, proof, rp: props.rp, challenge: props.challenge }),
    );
    if (!held) throw invalidCode();
  });
}
