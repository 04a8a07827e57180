import type { UserSnapshot } from "@schema/esrt/contract";
import type { User } from "@services/shared/generated/prisma/client";

/**
 * The user as the Pro app sees them (schema/esrt/contract.ts), carried by every user event of a
 * change the Pro app must know; the esrt-sync service delivers the latest one.
 */
export function syncSnapshot(
  user: Pick<
    User,
    | "uniqueId"
    | "username"
    | "firstName"
    | "lastName"
    | "email"
    | "phone"
    | "companyName"
    | "userType"
    | "userStatus"
    | "accessLevel"
    | "version"
  >,
): UserSnapshot {
  return {
    uniqueId: user.uniqueId,
    username: user.username,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    phone: user.phone,
    companyName: user.companyName,
    userType: user.userType,
    userStatus: user.userStatus,
    accessLevel: user.accessLevel,
    version: user.version,
  };
}
