import type { Actor } from "@schema/events/envelope";
import { audit } from "@services/shared/audit";
import type { Tx } from "@services/shared/db";
import { emit } from "@services/shared/events";
import type { Prisma, User } from "@services/shared/generated/prisma/client";
import { endTokens, PASSWORD_LINKS } from "./oneTimeTokens";

/** How a password came to change: its owner, an emailed reset link, or the admin-password command. */
export type PasswordChangeVia = "self" | "reset" | "admin";

/**
 * Stores a new password hash in the caller's transaction, the one way every password change does
 * it: the row (with `also`, e.g. a reset's proof of the address), a raised version, every session
 * issued before now refused (sessionsValidAfter), every unused reset or invitation link ended,
 * user.password_changed and an audit row.
 * @throws Prisma errors (a missing user included).
 */
export async function storeNewPassword(
  tx: Tx,
  props: {
    userId: number;
    hash: string;
    via: PasswordChangeVia;
    /** who changed it: the user, or nobody signed in (the command) */
    actor: Actor;
    ip?: string | null;
    /** what the audit row says of the way (defaults to `via`) */
    auditVia?: string;
    also?: Prisma.UserUpdateInput;
  },
): Promise<User> {
  const user = await tx.user.update({
    where: { id: props.userId },
    data: {
      resetToken: null,
      resetTokenExpiresAt: null,
      ...props.also,
      password: props.hash,
      version: { increment: 1 },
      sessionsValidAfter: new Date(),
    },
  });
  // a reset link still in a mailbox must not set the password again after this change
  await endTokens(tx, { userId: user.id, purposes: PASSWORD_LINKS });
  await emit(
    tx,
    {
      type: "user.password_changed",
      payload: { userId: user.id, email: user.email, firstName: user.firstName, via: props.via },
    },
    { actor: props.actor },
  );
  await audit(tx, {
    action: "user.password_changed",
    actorId: props.actor?.kind === "user" ? (props.actor.userId ?? null) : null,
    targetType: "user",
    targetId: user.id,
    ip: props.ip,
    metadata: { via: props.auditVia ?? props.via },
  });
  return user;
}
