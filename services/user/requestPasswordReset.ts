import { audit } from "@services/shared/audit";
import type { Db } from "@services/shared/db";
import { emit } from "@services/shared/events";
import { tokenEmailFields } from "./eventContact";
import { issueToken } from "./oneTimeTokens";

export const RESET_REQUESTED_MESSAGE =
  "If an account exists with this email, you will receive reset instructions.";

/**
 * Starts a password reset for `email`: when an active account has it, issues a 60-minute token and
 * emits user.password_reset_requested with the token sealed. Answers the same either way.
 * @throws Prisma errors.
 */
export async function requestPasswordReset(props: { db: Db; email: string }): Promise<{ message: string }> {
  const { db } = props;
  const [row] = await db.prisma.$queryRaw<{ id: number }[]>`
    SELECT id FROM users WHERE lower(email) = lower(${props.email.trim()}) AND "userStatus" = 'active' LIMIT 1`;
  if (row) {
    await db.prisma.$transaction(async (tx) => {
      const user = await tx.user.findUniqueOrThrow({ where: { id: row.id } });
      const token = await issueToken(tx, { userId: user.id, purpose: "password_reset" });
      await tx.user.update({
        where: { id: user.id },
        data: { resetToken: null, resetTokenExpiresAt: token.expiresAt },
      });
      await emit(tx, {
        type: "user.password_reset_requested",
        payload: tokenEmailFields(user, token),
      });
      await audit(tx, {
        action: "user.password_reset_requested",
        actorId: null,
        targetType: "user",
        targetId: user.id,
      });
    });
  }
  return { message: RESET_REQUESTED_MESSAGE };
}
