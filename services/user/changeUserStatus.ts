import { audit } from "../shared/audit";
import type { Db } from "../shared/db";
import { emit } from "../shared/events";
import type { User } from "../shared/generated/prisma/client";
import type { UserStatus, UserType } from "../shared/generated/prisma/enums";
import { assertMayChangeAccount } from "./changeUserAccount";
import { UserError } from "./errors";
import { eventContact } from "./eventContact";
import { syncSnapshot } from "./syncSnapshot";

/**
 * An administrator sets a user's status (active, inactive, archived): the row, user.status_changed
 * and an audit row in one transaction. The caller ends the user's sessions.
 * @throws UserError USER_NOT_FOUND, NOT_ALLOWED (own account; a mainAdmin by a non-mainAdmin).
 */
export async function changeUserStatus(props: {
  db: Db;
  actor: { id: number; userType: UserType };
  userId: number;
  status: UserStatus;
  ip?: string | null;
}): Promise<User> {
  return props.db.prisma.$transaction(async (tx) => {
    const target = await tx.user.findUnique({ where: { id: props.userId } });
    if (!target) throw new UserError("USER_NOT_FOUND", "User not found");
    assertMayChangeAccount({ actor: props.actor, target });
    if (target.userStatus === props.status) return target;
    const user = await tx.user.update({
      where: { id: target.id },
      data: { userStatus: props.status, version: { increment: 1 }, sessionsValidAfter: new Date() },
    });
    await emit(
      tx,
      {
        type: "user.status_changed",
        payload: {
          ...eventContact(user),
          previousStatus: target.userStatus,
          status: user.userStatus,
          userVersion: user.version,
          snapshot: syncSnapshot(user),
        },
      },
      { actor: { kind: "admin", userId: props.actor.id } },
    );
    await audit(tx, {
      action: "user.status_changed",
      actorId: props.actor.id,
      targetType: "user",
      targetId: user.id,
      ip: props.ip,
      metadata: { from: target.userStatus, to: user.userStatus },
    });
    return user;
  });
}
