import type { Db, PreparedStatement, Tx } from "@services/shared/db";

// What second factors a user holds, read in one statement, and the users row's twoFactorEnabled
// kept true exactly while the user holds a confirmed authenticator or a passkey.

/** The second factors of a sign-in (issue 20), as POST /api/login names them. */
export const SECOND_FACTOR_METHODS = ["totp", "passkey", "recovery_code"] as const;
export type SecondFactorMethod = (typeof SECOND_FACTOR_METHODS)[number];

const HELD: PreparedStatement = {
  name: "two_factor_methods_held",
  text: `SELECT
    EXISTS (SELECT 1 FROM two_factor_authenticators WHERE "userId" = $1 AND "confirmedAt" IS NOT NULL) AS totp,
    EXISTS (SELECT 1 FROM passkeys WHERE "userId" = $1) AS passkey,
    EXISTS (SELECT 1 FROM recovery_codes WHERE "userId" = $1 AND "usedAt" IS NULL) AS recovery_code`,
};

/** The second factors `userId` may give now: an authenticator code, a passkey, a recovery code. */
export async function secondFactorMethods(db: Db, userId: number): Promise<SecondFactorMethod[]> {
  const [row] = await db.queryRows<Record<SecondFactorMethod, boolean>>(HELD, [userId]);
  return SECOND_FACTOR_METHODS.filter((method) => row?.[method] === true);
}

/**
 * Sets users.twoFactorEnabled from what the user holds, in the caller's transaction; when nothing is
 * left, the recovery codes go too (they belong to a second factor that is no more). Raw, so that
 * the row's updatedAt and version (the Pro app's) stay as they are: the Pro app never sees this.
 * Returns whether two-factor sign-in is on.
 */
export async function refreshTwoFactorEnabled(tx: Tx, userId: number): Promise<boolean> {
  const [row] = await tx.$queryRaw<{ enabled: boolean }[]>`
    UPDATE users SET "twoFactorEnabled" =
      EXISTS (SELECT 1 FROM two_factor_authenticators WHERE "userId" = ${userId} AND "confirmedAt" IS NOT NULL)
      OR EXISTS (SELECT 1 FROM passkeys WHERE "userId" = ${userId})
    WHERE id = ${userId} RETURNING "twoFactorEnabled" AS enabled`;
  const enabled = row?.enabled === true;
  if (!enabled) await tx.recoveryCode.deleteMany({ where: { userId } });
  return enabled;
}
