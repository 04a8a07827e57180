import type { Db } from "@services/shared/db";
import type { User } from "@services/shared/generated/prisma/client";
import type { AccessLevel, UserType } from "@services/shared/generated/prisma/enums";
import { changeAccount } from "./changeUserAccount";
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
  return changeAccount({
    ...props,
    change: {
      field: "accessLevel",
      to: props.accessLevel,
      action: "user.access_level_changed",
      event: (user) => ({
        type: "user.updated",
        payload: {
          ...eventContact(user),
          changedFields: ["accessLevel"],
          userType: user.userType,
          userVersion: user.version,
          snapshot: syncSnapshot(user),
        },
      }),
    },
  });
}
