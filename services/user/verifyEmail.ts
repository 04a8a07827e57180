import { audit } from "@services/shared/audit";
import type { Db } from "@services/shared/db";
import { emit } from "@services/shared/events";
import type { User } from "@services/shared/generated/prisma/client";
import { UserError } from "./errors";
import { consumeToken } from "./oneTimeTokens";
import { syncSnapshot } from "./syncSnapshot";

export const INVALID_VERIFICATION_MESSAGE = "This verification link is invalid or has expired";

/**
 * Marks the email of the token's user verified (single-use token, 48 hours) and emits
 * user.email_verified.
 * @throws UserError INVALID_VERIFICATION_TOKEN.
 */
export async function verifyEmail(props: { db: Db; token: string }): Promise<User> {
  return props.db.prisma.$transaction(async (tx) => {
    const userId = await consumeToken(tx, { raw: props.token, purpose: "email_verification" });
    if (userId === null) throw new UserError("INVALID_VERIFICATION_TOKEN", INVALID_VERIFICATION_MESSAGE);
    const user = await tx.user.update({
      where: { id: userId },
      data: { emailVerified: true, version: { increment: 1 } },
    });
    await emit(
      tx,
      {
        type: "user.email_verified",
        payload: {
          userId,
          uniqueId: user.uniqueId,
          email: user.email,
          userVersion: user.version,
          firstName: user.firstName,
          lastName: user.lastName,
          username: user.username,
          snapshot: syncSnapshot(user),
        },
      },
      { actor: { kind: "user", userId } },
    );
    await audit(tx, {
      action: "user.email_verified",
      actorId: userId,
      targetType: "user",
      targetId: userId,
      before: { emailVerified: false },
      after: { emailVerified: true },
    });
    return user;
  });
}
