import type { User } from "@services/shared/generated/prisma/client";
import { UserError } from "./errors";
import { consumeToken, type TokenPasswordProps } from "./oneTimeTokens";
import { hashPassword } from "./passwords";
import { assertPasswordAllowed } from "./securitySettings";
import { storeNewPassword } from "./storeNewPassword";

export const INVALID_RESET_MESSAGE = "This reset link is invalid or has expired";

/**
 * Sets a new password with an emailed reset token (single use, 60 minutes) and emits
 * user.password_changed (via "reset"). The caller ends the user's sessions.
 * @throws UserError COMMON_PASSWORD (AppError VALIDATION_FAILED under the stored minimum length), INVALID_RESET_TOKEN.
 */
export async function resetPassword(props: TokenPasswordProps): Promise<User> {
  await assertPasswordAllowed({ db: props.db, password: props.password, field: "password" });
  const hash = await hashPassword(props.password);
  return props.db.prisma.$transaction(async (tx) => {
    const userId = await consumeToken(tx, { raw: props.token, purpose: "password_reset" });
    if (userId === null) throw new UserError("INVALID_RESET_TOKEN", INVALID_RESET_MESSAGE);
    return storeNewPassword(tx, {
      userId,
      hash,
      via: "reset",
      actor: { kind: "user", userId },
      ip: props.ip,
      // following the emailed link proves the address, as the verification link would
      also: { resetToken: null, resetTokenExpiresAt: null, emailVerified: true },
    });
  });
}
