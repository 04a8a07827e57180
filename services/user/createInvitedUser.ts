import type { NewUser } from "../../schema/validation/userAdmin";
import { audit } from "../shared/audit";
import type { Db } from "../shared/db";
import { emit } from "../shared/events";
import { type User } from "../shared/generated/prisma/client";
import type { UserType } from "../shared/generated/prisma/enums";
import { seal } from "../shared/sealed";
import { UserError } from "./errors";
import { eventContact } from "./eventContact";
import { assertMayGrant } from "./grants";
import { issueToken } from "./oneTimeTokens";
import { syncSnapshot } from "./syncSnapshot";
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
      const token = await issueToken(tx, { userId: user.id, purpose: "invitation" });
      await emit(
        tx,
        {
          type: "user.invited",
          payload: {
            ...eventContact(user),
            username: user.username,
            userType: user.userType,
            companyName: user.companyName,
            userVersion: user.version,
            snapshot: syncSnapshot(user),
            sealedToken: seal(token.raw),
            tokenExpiresAt: token.expiresAt.toISOString(),
            invitedBy: actor.name,
          },
        },
        { actor: { kind: "admin", userId: actor.id } },
      );
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
