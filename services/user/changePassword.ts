import { audit } from "@services/shared/audit";
import type { Db } from "@services/shared/db";
import type { User } from "@services/shared/generated/prisma/client";
import { UserError } from "./errors";
import { hashPassword, verifyPassword } from "./passwords";
import { assertPasswordAllowed } from "./securitySettings";
import { storeNewPassword } from "./storeNewPassword";

export const CURRENT_PASSWORD_INCORRECT_MESSAGE = "Current password is incorrect";

/**
 * A signed-in user changes their password: the current one must match, the new one must not be
 * common. The row, user.password_changed (via "self") and an audit row are written in one
 * transaction. The caller renews the caller's session and ends the user's other sessions.
 * @throws UserError WRONG_PASSWORD (details.errors.currentPassword), COMMON_PASSWORD (AppError VALIDATION_FAILED under the stored minimum length), USER_NOT_FOUND.
 */
export async function changePassword(props: {
  db: Db;
  userId: number;
  currentPassword: string;
  newPassword: string;
  ip?: string | null;
}): Promise<User> {
  const found = await props.db.prisma.user.findUnique({ where: { id: props.userId } });
  if (!found) throw new UserError("USER_NOT_FOUND", "User not found");
  if (!(await verifyPassword(found.password, props.currentPassword))) {
    await audit(props.db.prisma, {
      action: "user.password_change_failed",
      actorId: found.id,
      targetType: "user",
      targetId: found.id,
      ip: props.ip,
      metadata: { reason: "wrong_current_password" },
    });
    throw new UserError("WRONG_PASSWORD", CURRENT_PASSWORD_INCORRECT_MESSAGE, {
      errors: { currentPassword: [CURRENT_PASSWORD_INCORRECT_MESSAGE] },
    });
  }
  await assertPasswordAllowed({ db: props.db, password: props.newPassword, field: "newPassword" });
  const hash = await hashPassword(props.newPassword);
  return props.db.prisma.$transaction((tx) =>
    storeNewPassword(tx, {
      userId: found.id,
      hash,
      via: "self",
      actor: { kind: "user", userId: found.id },
      ip: props.ip,
    }),
  );
}
