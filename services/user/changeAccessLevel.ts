import type { User } from "@services/shared/generated/prisma/client";
import type { AccessLevel } from "@services/shared/generated/prisma/enums";
import { type AdminCommandProps, changeAccount, userUpdated } from "./changeUserAccount";

/**
 * A user administrator sets what a user may do in the Pro app (full or limited; shared DECISIONS.md,
 * The Pro app). It changes nothing inside the portal: the row, user.updated (changedFields
 * ["accessLevel"], with the sync snapshot the Pro app receives) and an audit row in one transaction.
 * @throws UserError USER_NOT_FOUND, NOT_ALLOWED (own account; a mainAdmin by a non-mainAdmin).
 */
export async function changeAccessLevel(
  props: AdminCommandProps & { userId: number; accessLevel: AccessLevel },
): Promise<User> {
  return changeAccount({
    ...props,
    change: {
      field: "accessLevel",
      to: props.accessLevel,
      action: "user.access_level_changed",
      event: userUpdated("accessLevel"),
    },
  });
}
