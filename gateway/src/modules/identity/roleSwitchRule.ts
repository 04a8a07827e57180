import { FORBIDDEN_MESSAGE, holds, UNAUTHORIZED_MESSAGE } from "@gateway/auth/actor";
import { permissionsOf } from "@gateway/auth/permissions";
import type { Config } from "@services/shared/config";
import type { Db } from "@services/shared/db";
import { AppError } from "@services/shared/errors";
import type { User } from "@services/shared/generated/prisma/client";
import { findSessionUser, roleSwitchAvailable } from "@services/user";

// Who may use the role switcher (issue 21, DECISIONS "Role switcher"), shared by the switch itself
// and by the loading of a session it began: the holder of manage:config (the testing tools'
// permission: a mainAdmin), never in production.

/** Whether the role switcher exists here: never in production, by either configuration. */
export function roleSwitcherExists(cfg: Config): boolean {
  return cfg.NODE_ENV !== "production" && roleSwitchAvailable();
}

/** Whether `user` may switch roles: an active holder of manage:config (a mainAdmin). */
export function mayRoleSwitch(user: User | null): user is User {
  return (
    user?.userStatus === "active" && holds({ permissions: permissionsOf(user.userType) }, "manage:config")
  );
}

/**
 * Whether a session a role switch began still holds: here (never in production), for a demo user,
 * while the mainAdmin behind it may still switch and their sessions were not revoked after
 * `issuedAt` (a password, status or type change of theirs, or "Sign out everyone else").
 * @throws the database driver's error.
 */
export async function roleSwitchHolds(props: {
  cfg: Config;
  db: Db;
  user: User;
  switchedBy: number;
  issuedAt: number;
}): Promise<boolean> {
  if (!roleSwitcherExists(props.cfg) || !props.user.isDemo) return false;
  const admin = await findSessionUser({ db: props.db, userId: props.switchedBy });
  if (!mayRoleSwitch(admin)) return false;
  return !admin.sessionsValidAfter || props.issuedAt >= admin.sessionsValidAfter.getTime();
}

/**
 * The mainAdmin on whose authority `caller` may switch roles: for a session a role switch began
 * (`switchedBy`), the mainAdmin behind it, so that a tester goes from role to role; otherwise the
 * caller, who must be a mainAdmin.
 * @throws AppError UNAUTHENTICATED when nobody is signed in, FORBIDDEN for anyone else.
 */
export async function roleSwitcherOf(props: {
  db: Db;
  caller: User | null;
  switchedBy: number | undefined;
}): Promise<User> {
  if (!props.caller) throw new AppError("UNAUTHENTICATED", UNAUTHORIZED_MESSAGE);
  if (props.switchedBy !== undefined && props.caller.isDemo) {
    const admin = await findSessionUser({ db: props.db, userId: props.switchedBy });
    if (mayRoleSwitch(admin)) return admin;
  } else if (mayRoleSwitch(props.caller)) {
    return props.caller;
  }
  throw new AppError("FORBIDDEN", FORBIDDEN_MESSAGE);
}
