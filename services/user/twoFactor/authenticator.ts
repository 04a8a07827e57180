import type { Tx } from "@services/shared/db";
import { sealSetting, unsealSetting } from "@services/shared/sealed";
import { matchTotpStep, newTotpSecret } from "./totp";

// The user's authenticator app: its secret sealed at rest, confirmed by a first code, and each
// accepted code's time step remembered so that no code is accepted twice.

/** A new unconfirmed secret for `userId` (replacing an unconfirmed one), in the caller's transaction. */
export async function newPendingSecret(tx: Tx, userId: number): Promise<string> {
  const secret = newTotpSecret();
  const secretSealed = sealSetting(secret);
  await tx.twoFactorAuthenticator.upsert({
    where: { userId },
    create: { userId, secretSealed },
    update: { secretSealed, confirmedAt: null, lastUsedStep: null, createdAt: new Date() },
  });
  return secret;
}

/**
 * Accepts `code` of the user's authenticator (the confirmed one, or with `pending` the one being
 * set up) when it matches a step within the window later than every step accepted before; stamps
 * that step, atomically (two requests with one code: one is accepted). Returns whether it was.
 */
export async function spendAuthenticatorCode(
  tx: Tx,
  props: { userId: number; code: string; pending?: boolean; at?: number },
): Promise<boolean> {
  const row = await tx.twoFactorAuthenticator.findUnique({ where: { userId: props.userId } });
  if (!row || (row.confirmedAt === null) !== (props.pending === true)) return false;
  const step = matchTotpStep(unsealSetting(row.secretSealed), props.code, props.at);
  if (step === null) return false;
  const { count } = await tx.twoFactorAuthenticator.updateMany({
    where: {
      userId: props.userId,
      OR: [{ lastUsedStep: null }, { lastUsedStep: { lt: BigInt(step) } }],
    },
    data: { lastUsedStep: BigInt(step), ...(props.pending ? { confirmedAt: new Date() } : {}) },
  });
  return count === 1;
}
