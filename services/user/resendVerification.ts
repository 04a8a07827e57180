import type { Db, Tx } from "@services/shared/db";
import { type EmitMeta, emit } from "@services/shared/events";
import type { User } from "@services/shared/generated/prisma/client";
import { tokenEmailFields } from "./eventContact";
import { issueToken } from "./oneTimeTokens";

export const VERIFICATION_RESENT_MESSAGE =
  "If an account with this email still needs verification, a new link is on its way.";

/**
 * Issues a new email-verification token for `user` (the previous link stops working) and emits
 * user.verification_requested with the token sealed, in the caller's transaction: the email
 * service sends the link.
 */
export async function requestVerification(
  tx: Tx,
  user: Pick<User, "id" | "email" | "firstName">,
  meta?: EmitMeta,
): Promise<void> {
  const token = await issueToken(tx, { userId: user.id, purpose: "email_verification" });
  await emit(
    tx,
    {
      type: "user.verification_requested",
      payload: tokenEmailFields(user, token),
    },
    meta,
  );
}

/**
 * Sends a new email-verification link: when an active, unverified account has `email`, issues a new
 * token (the previous link stops working) and emits user.verification_requested with the token
 * sealed. Answers the same whether or not such an account exists.
 * @throws Prisma errors.
 */
export async function resendVerification(props: { db: Db; email: string }): Promise<{ message: string }> {
  const { db } = props;
  const [row] = await db.prisma.$queryRaw<{ id: number }[]>`
    SELECT id FROM users
    WHERE lower(email) = lower(${props.email.trim()}) AND "userStatus" = 'active' AND NOT "emailVerified"
    LIMIT 1`;
  if (row) {
    await db.prisma.$transaction(async (tx) => {
      await requestVerification(tx, await tx.user.findUniqueOrThrow({ where: { id: row.id } }));
    });
  }
  return { message: VERIFICATION_RESENT_MESSAGE };
}
