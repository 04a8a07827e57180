import type { User } from "@services/shared/generated/prisma/client";
import type { UserStatus } from "@services/shared/generated/prisma/enums";
import { type AdminCommandProps, changeAccount } from "./changeUserAccount";
import { eventContact } from "./eventContact";
import { syncSnapshot } from "./syncSnapshot";

/**
 * An administrator sets a user's status (active, inactive, archived): the row, user.status_changed
 * and an audit row in one transaction. The caller ends the user's sessions.
 * @throws UserError USER_NOT_FOUND, NOT_ALLOWED (own account; a mainAdmin by a non-mainAdmin).
 */
export async function changeUserStatus(
  props: AdminCommandProps & { userId: number; status: UserStatus },
): Promise<User> {
  return changeAccount({
    ...props,
    change: {
      field: "userStatus",
      to: props.status,
      also: { sessionsValidAfter: new Date() },
      action: "user.status_changed",
      event: (user, before) => ({
        type: "user.status_changed",
        payload: {
          ...eventContact(user),
          previousStatus: before.userStatus,
          status: user.userStatus,
          userVersion: user.version,
          snapshot: syncSnapshot(user),
        },
      }),
    },
  });
}
