import type { User } from "../shared/generated/prisma/client";
import type { UserType } from "../shared/generated/prisma/enums";
import { UserError } from "./errors";

/**
 * The rules every administrator change to an account obeys (DECISIONS.md, Roles and permissions):
 * nobody changes their own type or status, and only a mainAdmin may touch a mainAdmin or make one.
 * @throws UserError NOT_ALLOWED.
 */
export function assertMayChangeAccount(props: {
  actor: { id: number; userType: UserType };
  target: User;
  newType?: UserType;
}): void {
  const { actor, target } = props;
  if (actor.id === target.id) {
    throw new UserError("NOT_ALLOWED", "You cannot change your own user type or status");
  }
  const touchesMainAdmin = target.userType === "mainAdmin" || props.newType === "mainAdmin";
  if (touchesMainAdmin && actor.userType !== "mainAdmin") {
    throw new UserError(
      "NOT_ALLOWED",
      "Only a main administrator may create, promote to or demote from mainAdmin",
    );
  }
}
