import type { UserType } from "@services/shared/generated/prisma/enums";
import { UserError } from "./errors";

// Which user types an administrator may give or take away (issue 11; docs/DECISIONS.md, Roles and
// permissions): a userAdmin manages prospects, users and clients; only a mainAdmin grants or removes
// the admin types (mainAdmin, userAdmin).

/** The admin types: only a mainAdmin grants them, or changes an account that holds one. */
export const ADMIN_TYPES: readonly UserType[] = ["mainAdmin", "userAdmin"];

/** The user types `actorType` may give an account (and may change an account of). */
export function grantableTypes(actorType: UserType): readonly UserType[] {
  if (actorType === "mainAdmin") return ["prospect", "user", "client", "userAdmin", "mainAdmin"];
  if (actorType === "userAdmin") return ["prospect", "user", "client"];
  return [];
}

/** Whether `actorType` may give an account the type `userType` (or change an account of that type). */
export function mayGrantType(actorType: UserType, userType: UserType): boolean {
  return grantableTypes(actorType).includes(userType);
}

/** Why a change touching the admin types is refused to a userAdmin. */
export const ADMIN_TYPES_MESSAGE =
  "Only a main administrator may grant, remove or change the mainAdmin and userAdmin types";

/**
 * Refuses unless `actorType` may give (or change an account of) each of `types`.
 * @throws UserError NOT_ALLOWED with {@link ADMIN_TYPES_MESSAGE}.
 */
export function assertMayGrant(actorType: UserType, ...types: UserType[]): void {
  if (!types.every((type) => mayGrantType(actorType, type))) {
    throw new UserError("NOT_ALLOWED", ADMIN_TYPES_MESSAGE);
  }
}

/** Why a userAdmin is refused an administrator's sessions. */
export const ADMIN_SESSIONS_MESSAGE = "Only a main administrator may see an administrator's sessions";

/**
 * Refuses to show `actorType` the open sessions (addresses, devices) of an account of `targetType`
 * unless it may manage that account: a userAdmin sees the sessions of prospects, users and clients
 * only; a mainAdmin sees everyone's (issue 20).
 * @throws UserError NOT_ALLOWED with {@link ADMIN_SESSIONS_MESSAGE}.
 */
export function assertMaySeeSessions(actorType: UserType, targetType: UserType): void {
  if (!mayGrantType(actorType, targetType)) throw new UserError("NOT_ALLOWED", ADMIN_SESSIONS_MESSAGE);
}
