import type { UserCard } from "@schema/api/user";
import type { Db } from "@services/shared/db";
import { AppError } from "@services/shared/errors";
import { findUserByUniqueId } from "./findUserByUniqueId";

/**
 * The console's card of a user by unique id: one's own, or anyone's with manage:users or
 * manage:esrt_sync (others learn nothing, not even whether the id exists). The Pro app's API keys
 * read it too.
 * @throws AppError FORBIDDEN; UserError USER_NOT_FOUND.
 */
export async function lookUpUser(props: {
  db: Db;
  actor: { uniqueId: string; permissions: readonly string[] };
  uniqueId: string;
}): Promise<UserCard> {
  const held = props.actor.permissions;
  const manager = held.includes("manage:users") || held.includes("manage:esrt_sync");
  if (!manager && props.uniqueId !== props.actor.uniqueId) {
    throw new AppError("FORBIDDEN", "You may only look up your own account");
  }
  return findUserByUniqueId({ db: props.db, uniqueId: props.uniqueId });
}
