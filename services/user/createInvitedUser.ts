import type { NewUser } from "@schema/validation/userAdmin";
import { audit } from "@services/shared/audit";
import type { Db, Tx } from "@services/shared/db";
import { emit } from "@services/shared/events";
import { type User } from "@services/shared/generated/prisma/client";
import type { UserType } from "@services/shared/generated/prisma/enums";
import { findManagedUser, OWN_ACCOUNT_MESSAGE } from "./changeUserAccount";
import { UserError } from "./errors";
import { newAccountFields } from "./eventContact";
import { assertMayGrant } from "./grants";
import { type AccountActionResult, assertActive } from "./manageUser";
import { issueToken } from "./oneTimeTokens";
import {
  EMAIL_TAKEN_MESSAGE,
  type TakenNames,
  takenByRace,
  takenFields,
  USERNAME_TAKEN_MESSAGE,
} from "./takenNames";
import { generateUniqueId } from "./uniqueId";

/**
 * The password column of an invited account until its owner sets one: not an argon2 hash, so no
 * password matches it (verifyPassword answers false for a malformed hash).
 */
export const INVITATION_PENDING_PASSWORD = "!invitation-pending";

/** The field errors of a taken username or email, as the registration words them. */
function takenError(taken: TakenNames): UserError | null {
  if (!taken.username && !taken.email) return null;
  const errors: Record<string, string[]> = {};
  if (taken.username) errors.username = [USERNAME_TAKEN_MESSAGE];
  if (taken.email) errors.email = [EMAIL_TAKEN_MESSAGE];
  return taken.username
    ? new UserError("USERNAME_TAKEN", USERNAME_TAKEN_MESSAGE, { errors })
    : new UserError("EMAIL_TAKEN", EMAIL_TAKEN_MESSAGE, { errors });
}

/**
 * Issues the user a new invitation token (the earlier one stops working) and emits user.invited,
 * whose consumer emails the set-password link.
 */
async function invite(tx: Tx, props: { user: User; actor: { id: number; name: string } }): Promise<void> {
  const { user, actor } = props;
  const token = await issueToken(tx, { userId: user.id, purpose: "invitation" });
  await emit(
    tx,
    {
      type: "user.invited",
      payload: {
        ...newAccountFields(user, token),
        invitedBy: actor.name,
      },
    },
    { actor: { kind: "admin", userId: actor.id } },
  );
}

/**
 * An administrator creates an account without a password and invites its owner (issue 11): the row,
 * a 72-hour single-use invitation token (stored hashed), user.invited with the token sealed and the
 * sync snapshot, and an audit row, in one transaction. The type must be one the actor may grant.
 * @throws UserError NOT_ALLOWED (a type the actor may not grant), USERNAME_TAKEN, EMAIL_TAKEN.
 */
export async function createInvitedUser(props: {
  db: Db;
  actor: { id: number; userType: UserType; name: string };
  input: NewUser;
  ip?: string | null;
  /** what the audit row says of how the user came (a single creation or an import job) */
  via?: { kind: "create" } | { kind: "import"; jobId: number };
}): Promise<User> {
  const { db, input, actor } = props;
  assertMayGrant(actor.userType, input.userType);
  const refused = takenError(await takenFields(db, input));
  if (refused) throw refused;
  try {
    return await db.prisma.$transaction(async (tx) => {
      const isAdmin = input.userType === "mainAdmin" || input.userType === "userAdmin";
      const user = await tx.user.create({
        data: {
          uniqueId: generateUniqueId(),
          username: input.username,
          email: input.email,
          password: INVITATION_PENDING_PASSWORD,
          firstName: input.firstName,
          lastName: input.lastName,
          phone: input.phone ?? null,
          companyName: input.companyName ?? null,
          userType: input.userType,
          // an administrator has full access in the Pro app (as a promotion gives)
          ...(isAdmin ? { accessLevel: "full" as const } : {}),
        },
      });
      await invite(tx, { user, actor });
      await audit(tx, {
        action: "user.created",
        actorId: actor.id,
        targetType: "user",
        targetId: user.id,
        ip: props.ip,
        metadata: {
          userType: user.userType,
          via: props.via?.kind ?? "create",
          ...(props.via?.kind === "import" ? { jobId: props.via.jobId } : {}),
        },
      });
      return user;
    });
  } catch (err) {
    const raced = takenByRace(err);
    throw (raced && takenError(raced)) ?? err;
  }
}

/**
 * Sends an invited user a new invitation (issue 11): a new 72-hour set-password link, the earlier
 * one no longer working, and an audit row. Only for an active account whose owner has not set a
 * password yet (after that, a password reset is what helps).
 * @throws UserError USER_NOT_FOUND, NOT_ALLOWED (own account, a mainAdmin by a non-mainAdmin, an
 * inactive account, or a password already set).
 */
export async function resendInvitation(props: {
  db: Db;
  /** the administrator, whose name the invitation gives */
  actor: Pick<User, "id" | "userType" | "firstName" | "lastName">;
  userId: number;
  ip?: string | null;
}): Promise<AccountActionResult> {
  const { actor } = props;
  return props.db.prisma.$transaction(async (tx) => {
    const target = await findManagedUser(tx, { ...props, selfMessage: OWN_ACCOUNT_MESSAGE });
    if (!invitationPending(target)) {
      throw new UserError(
        "NOT_ALLOWED",
        "This user has already set a password: send a password reset instead",
      );
    }
    assertActive(target);
    await invite(tx, {
      user: target,
      actor: { id: actor.id, name: `${actor.firstName} ${actor.lastName}`.trim() },
    });
    await audit(tx, {
      action: "user.invitation_resent",
      actorId: actor.id,
      targetType: "user",
      targetId: target.id,
      ip: props.ip,
      metadata: { email: target.email },
    });
    return { user: target, message: `A new invitation was sent to ${target.email}` };
  });
}

/** Whether the user was invited and has not set a password yet. */
export function invitationPending(user: Pick<User, "password">): boolean {
  return user.password === INVITATION_PENDING_PASSWORD;
}

/** Whether the user with this id was invited and has not set a password yet (false when unknown). */
export async function invitationPendingOf(db: Db, userId: number): Promise<boolean> {
  const user = await db.prisma.user.findUnique({ where: { id: userId }, select: { password: true } });
  return user ? invitationPending(user) : false;
}
