import { audit } from "../shared/audit";
import type { Db } from "../shared/db";
import { emit } from "../shared/events";
import type { User } from "../shared/generated/prisma/client";
import type { AccessLevel, UserType } from "../shared/generated/prisma/enums";
import { assertMayChangeAccount } from "./changeUserAccount";
import { UserError } from "./errors";
import { eventContact } from "./eventContact";
import { syncSnapshot } from "./syncSnapshot";

/**
 * A user administrator sets what a user may do in the Pro app (full or limited; shared DECISIONS.md,
 * The Pro app). It changes nothing inside the portal: the row, user.updated (changedFields
 * ["accessLevel"], with the sync snapshot the Pro app receives) and an audit row in one transaction.
 * @throws UserError USER_NOT_FOUND, NOT_ALLOWED (own account; a mainAdmin by a non-mainAdmin).
 */
export async function changeAccessLevel(props: {
  db: Db;
  actor: { id: number; userType: UserType };
  userId: number;
  accessLevel: AccessLevel;
  ip?: string | null;
}): Promise<User> {
  return props.db.prisma.$transaction(async (tx) => {
    const target = await tx.user.findUnique({ where: { id: props.userId } });
    if (!target) throw new UserError("USER_NOT_FOUND", "User not found");
    assertMayChangeAccount({ actor: props.actor, target });
    if (target.accessLevel === props.accessLevel) return target;
    const user = await tx.user.update({
      where: { id: target.id },
      data: { accessLevel: props.accessLevel, version: { increment: 1 } },
    });
    await emit(
      tx,
      {
        type: "user.updated",
        payload: {
          ...eventContact(user),
          changedFields: ["accessLevel"],
          userType: user.userType,
          userVersion: user.version,
          snapshot: syncSnapshot(user),
        },
      },
      { actor: { kind: "admin", userId: props.actor.id } },
    );
    await audit(tx, {
      action: "user.access_level_changed",
      actorId: props.actor.id,
      targetType: "user",
      targetId: user.id,
      ip: props.ip,
      metadata: { from: target.accessLevel, to: user.accessLevel },
    });
    return user;
  });
}
