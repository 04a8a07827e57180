import type { NewUser } from "../../schema/validation/userAdmin";
import { audit } from "../shared/audit";
import type { Db, Tx } from "../shared/db";
import { emit } from "../shared/events";
import { Prisma, type User } from "../shared/generated/prisma/client";
import type { UserType } from "../shared/generated/prisma/enums";
import { seal } from "../shared/sealed";
import { UserError } from "./errors";
import { eventContact } from "./eventContact";
import { mayGrantType } from "./grants";
import { issueToken } from "./oneTimeTokens";
import { syncSnapshot } from "./syncSnapshot";
import { generateUniqueId } from "./uniqueId";

/**
 * The password column of an invited account until its owner sets one: not an argon2 hash, so no
 * password matches it (verifyPassword answers false for a malformed hash).
 */
export const INVITATION_PENDING_PASSWORD = "!invitation-pending";

export const USERNAME_TAKEN_MESSAGE = "Username already taken";
export const EMAIL_TAKEN_MESSAGE = "Email already registered";

/** Which of `username` and `email` already belong to an account (case-insensitive). */
export async function takenFields(
  db: Db | Tx,
  props: { username: string; email: string },
): Promise<{ username: boolean; email: boolean }> {
  const client = "prisma" in db ? db.prisma : db;
  const [row] = await client.$queryRaw<{ username: boolean | null; email: boolean | null }[]>`
    SELECT bool_or(lower(username) = lower(${props.username})) AS username,
           bool_or(lower(email) = lower(${props.email})) AS email
    FROM users WHERE lower(username) = lower(${props.username}) OR lower(email) = lower(${props.email})`;
  return { username: row?.username === true, email: row?.email === true };
}

/** The field errors of a taken username or email, as the registration words them. */
function takenError(taken: { username: boolean; email: boolean }): UserError | null {
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
  if (!mayGrantType(actor.userType, input.userType)) {
    throw new UserError(
      "NOT_ALLOWED",
      "Only a main administrator may grant, remove or change the mainAdmin and userAdmin types",
    );
  }
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
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") {
      const target = JSON.stringify(err.meta ?? {});
      throw takenError({ username: !target.includes("email"), email: target.includes("email") }) ?? err;
    }
    throw err;
  }
}
