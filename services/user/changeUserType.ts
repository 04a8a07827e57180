import type { User } from "@services/shared/generated/prisma/client";
import type { UserType } from "@services/shared/generated/prisma/enums";
import { type AdminCommandProps, changeAccount, userUpdated } from "./changeUserAccount";

/**
 * An administrator sets a user's type (for example confirms a 'user' as 'client'): the row,
 * user.updated (changedFields ["userType"]) and an audit row in one transaction. The user's open
 * sessions go on: each request reads the user again, so the new type's rights apply at once
 * (docs/DECISIONS.md, User administration: one user).
 * @throws UserError USER_NOT_FOUND, NOT_ALLOWED (own account; mainAdmin rules).
 */
export async function changeUserType(
  props: AdminCommandProps & { userId: number; userType: UserType },
): Promise<User> {
  return changeAccount({
    ...props,
    change: {
      field: "userType",
      to: props.userType,
      newType: props.userType,
      // an administrator has full access in the Pro app
      also: props.userType === "mainAdmin" || props.userType === "userAdmin" ? { accessLevel: "full" } : {},
      action: "user.type_changed",
      event: userUpdated("userType"),
    },
  });
}
