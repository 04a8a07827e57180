import { audit } from "../shared/audit";
import type { Db } from "../shared/db";
import { emit } from "../shared/events";
import type { User } from "../shared/generated/prisma/client";
import type { UserType } from "../shared/generated/prisma/enums";
import { assertMayChangeAccount } from "./changeUserAccount";
import { UserError } from "./errors";
import { eventContact } from "./eventContact";
import { syncSnapshot } from "./syncSnapshot";

/**
 * An administrator sets a user's type (for example confirms a 'user' as 'client'): the row,
 * user.updated (changedFields ["userType"]) and an audit row in one transaction. The caller ends
 * the user's sessions.
 * @throws UserError USER_NOT_FOUND, NOT_ALLOWED (own account; mainAdmin rules).
 */
export async function changeUserType(props: {
  db: Db;
  actor: { id: number; userType: UserType };
  userId: number;
  userType: UserType;
  ip?: string | null;
}): Promise<User> {
  return props.db.prisma.$transaction(async (tx) => {
    const target = await tx.user.findUnique({ where: { id: props.userId } });
    if (!target) throw new UserError("USER_NOT_FOUND", "User not found");
    assertMayChangeAccount({ actor: props.actor, target, newType: props.userType });
    if (target.userType === props.userType) return target;
    const user = await tx.user.update({
      where: { id: target.id },
      data: {
        userType: props.userType,
        accessLevel:
          props.userType === "mainAdmin" || props.userType === "userAdmin" ? "full" : target.accessLevel,
        version: { increment: 1 },
        sessionsValidAfter: new Date(),
      },
    });
    await emit(
      tx,
      {
        type: "user.updated",
        payload: {
          ...eventContact(user),
          changedFields: ["userType"],
          userType: user.userType,
          userVersion: user.version,
          snapshot: syncSnapshot(user),
        },
      },
      { actor: { kind: "admin", userId: props.actor.id } },
    );
    await audit(tx, {
      action: "user.type_changed",
      actorId: props.actor.id,
      targetType: "user",
      targetId: user.id,
      ip: props.ip,
      metadata: { from: target.userType, to: user.userType },
    });
    return user;
  });
}
