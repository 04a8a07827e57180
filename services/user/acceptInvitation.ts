import { audit } from "@services/shared/audit";
import { emit } from "@services/shared/events";
import type { User } from "@services/shared/generated/prisma/client";
import { UserError } from "./errors";
import { consumeToken, endTokens, hashToken, type TokenPasswordProps } from "./oneTimeTokens";
import { hashPassword } from "./passwords";
import { assertPasswordAllowed } from "./securitySettings";
import { syncSnapshot } from "./syncSnapshot";

export const INVITATION_INVALID_MESSAGE =
  "This invitation link is invalid. Please use the link from your invitation email.";
export const INVITATION_USED_MESSAGE =
  "This invitation link has already been used. Log in with your password, or reset it if you forgot it.";
export const INVITATION_EXPIRED_MESSAGE =
  "This invitation link has expired. Please ask your administrator to send a new invitation.";

/**
 * The invited user sets their first password with the emailed link (single use, 72 hours): the
 * password (the registration's rules, common ones refused), the address marked verified (the link
 * proves it), user.email_verified (with the sync snapshot; the welcome email) and an audit row.
 * @throws UserError COMMON_PASSWORD; INVALID_RESET_TOKEN with a message that says whether the link is
 * unknown, used or expired.
 */
export async function acceptInvitation(props: TokenPasswordProps): Promise<User> {
  await assertPasswordAllowed({ db: props.db, password: props.password, field: "password" });
  const token = await props.db.prisma.oneTimeToken.findUnique({
    where: { tokenHash: hashToken(props.token) },
    select: { purpose: true, usedAt: true, expiresAt: true },
  });
  if (token?.purpose !== "invitation") {
    throw new UserError("INVALID_RESET_TOKEN", INVITATION_INVALID_MESSAGE);
  }
  if (token.usedAt) throw new UserError("INVALID_RESET_TOKEN", INVITATION_USED_MESSAGE);
  if (token.expiresAt <= new Date()) throw new UserError("INVALID_RESET_TOKEN", INVITATION_EXPIRED_MESSAGE);
  const hash = await hashPassword(props.password);
  return props.db.prisma.$transaction(async (tx) => {
    const userId = await consumeToken(tx, { raw: props.token, purpose: "invitation" });
    // another request used it in the meantime
    if (userId === null) throw new UserError("INVALID_RESET_TOKEN", INVITATION_USED_MESSAGE);
    // a first password, not a change: no "password changed" notice, the welcome email instead
    const user = await tx.user.update({
      where: { id: userId },
      data: {
        password: hash,
        emailVerified: true,
        version: { increment: 1 },
        sessionsValidAfter: new Date(),
        resetToken: null,
        resetTokenExpiresAt: null,
      },
    });
    // a reset asked for before the invitation was accepted no longer sets the password
    await endTokens(tx, { userId, purposes: ["password_reset"] });
    await audit(tx, {
      action: "user.invitation_accepted",
      actorId: user.id,
      targetType: "user",
      targetId: user.id,
      ip: props.ip,
    });
    await emit(
      tx,
      {
        type: "user.email_verified",
        payload: {
          userId: user.id,
          uniqueId: user.uniqueId,
          email: user.email,
          userVersion: user.version,
          snapshot: syncSnapshot(user),
          firstName: user.firstName,
          lastName: user.lastName,
          username: user.username,
        },
      },
      { actor: { kind: "user", userId } },
    );
    return user;
  });
}
