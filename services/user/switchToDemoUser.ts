import { audit } from "@services/shared/audit";
import { config } from "@services/shared/config";
import type { Db } from "@services/shared/db";
import { AppError } from "@services/shared/errors";
import type { User } from "@services/shared/generated/prisma/client";
import { UserError } from "./errors";

// The role switcher's sign-in (issue 21, outside production): a mainAdmin becomes one of the demo
// users "Generate demo data" made, to see the portal as that role sees it. Who may switch is the
// gateway's rule (a mainAdmin's full session); this use case holds what may be switched to.

/** What the role switcher answers in production: the same as a path nothing answers. */
export const ROLE_SWITCH_ABSENT_MESSAGE = "Not found";
export const NOT_A_DEMO_USER_MESSAGE = "No demo user with this id";

/** Whether this deployment may have a role switcher: never in production. */
export function roleSwitchAvailable(): boolean {
  return config().NODE_ENV !== "production";
}

/**
 * Refuses the role switcher in production as if it did not exist.
 * @throws AppError NOT_FOUND in production.
 */
export function assertRoleSwitchAvailable(): void {
  if (!roleSwitchAvailable()) throw new AppError("NOT_FOUND", ROLE_SWITCH_ABSENT_MESSAGE);
}

/**
 * The demo user `userId` a role switch signs in as: only an active demo user (never a real account,
 * whatever its role), and never in production. Stamps their lastLoginAt and audits the switch
 * (`user.role_switched`, actor: the mainAdmin behind it) in one transaction.
 * @throws AppError NOT_FOUND in production; UserError USER_NOT_FOUND when `userId` is not an active
 * demo user.
 */
export async function switchToDemoUser(props: {
  db: Db;
  userId: number;
  /** the mainAdmin whose switch this is */
  switchedBy: number;
  /** the user the session belonged to before (the mainAdmin, or the demo user switched to earlier) */
  previousUserId: number;
}): Promise<User> {
  assertRoleSwitchAvailable();
  return props.db.prisma.$transaction(async (tx) => {
    const { count } = await tx.user.updateMany({
      where: { id: props.userId, isDemo: true, userStatus: "active" },
      data: { lastLoginAt: new Date() },
    });
    if (count === 0) throw new UserError("USER_NOT_FOUND", NOT_A_DEMO_USER_MESSAGE);
    const user = await tx.user.findUniqueOrThrow({ where: { id: props.userId } });
    await audit(tx, {
      action: "user.role_switched",
      actorId: props.switchedBy,
      targetType: "user",
      targetId: user.id,
      metadata: { userType: user.userType, previousUserId: props.previousUserId },
    });
    return user;
  });
}
