import type { AdminProfile } from "@schema/validation/adminUser";
import { ADMIN_PROFILE_FIELDS } from "@schema/validation/adminUser";
import { audit } from "@services/shared/audit";
import type { Db } from "@services/shared/db";
import { emit } from "@services/shared/events";
import { type User } from "@services/shared/generated/prisma/client";
import type { UserType } from "@services/shared/generated/prisma/enums";
import { findManagedUser, OWN_ACCOUNT_MESSAGE } from "./changeUserAccount";
import { UserError } from "./errors";
import { eventContact } from "./eventContact";
import { endTokens, PASSWORD_LINKS } from "./oneTimeTokens";
import { requestPasswordReset } from "./requestPasswordReset";
import { requestVerification } from "./resendVerification";
import { syncSnapshot } from "./syncSnapshot";
import { EMAIL_TAKEN_MESSAGE, rethrowTaken, takenFields, USERNAME_TAKEN_MESSAGE } from "./takenNames";

// An administrator's work on one account (issue 11): the profile, the verification and reset emails,
// the security questions and the audit of session revocations. Each starts with findManagedUser (the
// one rule of changeUserAccount.ts: not one's own account here; only a mainAdmin touches the admin
// types) and writes its row, event and audit row in one transaction.

type Actor = { id: number; userType: UserType };

type ProfileField = (typeof ADMIN_PROFILE_FIELDS)[number];

/**
 * Saves a user's profile as an administrator edits it (the registration rules, already parsed):
 * the changed fields, a raised version, user.updated with the sync snapshot and an audit row with
 * each changed field's before and after. A new email address is unverified: emailVerified becomes
 * false, a verification link goes to the new address (user.verification_requested) and the unused
 * reset and invitation links sent to the old one end. Nothing is written when nothing changed.
 * @throws UserError USER_NOT_FOUND, NOT_ALLOWED, USERNAME_TAKEN, EMAIL_TAKEN.
 */
export async function updateUserProfile(props: {
  db: Db;
  actor: Actor;
  userId: number;
  profile: AdminProfile;
  ip?: string | null;
}): Promise<User> {
  const wanted: Record<ProfileField, string | null> = {
    username: props.profile.username,
    email: props.profile.email,
    firstName: props.profile.firstName,
    lastName: props.profile.lastName,
    phone: props.profile.phone ?? null,
    companyName: props.profile.companyName ?? null,
  };
  try {
    return await props.db.prisma.$transaction(async (tx) => {
      const target = await findManagedUser(tx, {
        actor: props.actor,
        userId: props.userId,
        selfMessage: OWN_ACCOUNT_MESSAGE,
      });
      const changed = ADMIN_PROFILE_FIELDS.filter((field) => target[field] !== wanted[field]);
      if (changed.length === 0) return target;
      const taken = await takenFields(tx, {
        username: props.profile.username,
        email: props.profile.email,
        exceptUserId: target.id,
      });
      if (taken.username) throw new UserError("USERNAME_TAKEN", USERNAME_TAKEN_MESSAGE);
      if (taken.email) throw new UserError("EMAIL_TAKEN", EMAIL_TAKEN_MESSAGE);
      const emailChanged = changed.includes("email");
      const user = await tx.user.update({
        where: { id: target.id },
        data: {
          ...Object.fromEntries(changed.map((field) => [field, wanted[field]])),
          ...(emailChanged ? { emailVerified: false, resetToken: null, resetTokenExpiresAt: null } : {}),
          version: { increment: 1 },
        },
      });
      const actor = { actor: { kind: "admin" as const, userId: props.actor.id } };
      await emit(
        tx,
        {
          type: "user.updated",
          payload: {
            ...eventContact(user),
            changedFields: emailChanged && target.emailVerified ? [...changed, "emailVerified"] : changed,
            userType: user.userType,
            userVersion: user.version,
            snapshot: syncSnapshot(user),
          },
        },
        actor,
      );
      if (emailChanged) {
        // the reset and invitation links went to the old address: they end with it
        await endTokens(tx, { userId: user.id, purposes: PASSWORD_LINKS });
        await requestVerification(tx, user, actor);
      }
      await audit(tx, {
        action: "user.profile_updated",
        actorId: props.actor.id,
        targetType: "user",
        targetId: user.id,
        ip: props.ip,
        metadata: {
          changedFields: changed,
          before: Object.fromEntries(changed.map((field) => [field, target[field]])),
          after: Object.fromEntries(changed.map((field) => [field, user[field]])),
          ...(emailChanged ? { emailVerified: { from: target.emailVerified, to: false } } : {}),
        },
      });
      return user;
    });
  } catch (err) {
    // two edits racing for one name: the unique index decides, in the same words
    rethrowTaken(err);
  }
}

/** What an account action answers: the account after it, and what the administrator is told. */
export interface AccountActionResult {
  user: User;
  message: string;
}

/** What an administrator's action on one account takes: who acts, on which user, from where. */
interface AccountActionProps {
  db: Db;
  actor: Actor;
  userId: number;
  ip?: string | null;
}

/**
 * Sends the user a new email-verification link (the previous one stops working), as the
 * registration's: user.verification_requested with the token sealed; audited.
 * @throws UserError USER_NOT_FOUND, NOT_ALLOWED; also when the address is verified already or the
 * account is not active.
 */
export async function sendVerificationEmail(props: AccountActionProps): Promise<AccountActionResult> {
  return props.db.prisma.$transaction(async (tx) => {
    const user = await findManagedUser(tx, { ...props, selfMessage: OWN_ACCOUNT_MESSAGE });
    if (user.emailVerified) throw new UserError("NOT_ALLOWED", "This email address is already verified");
    assertActive(user);
    await requestVerification(tx, user, { actor: { kind: "admin", userId: props.actor.id } });
    await audit(tx, {
      action: "user.verification_sent",
      actorId: props.actor.id,
      targetType: "user",
      targetId: user.id,
      ip: props.ip,
      metadata: { email: user.email },
    });
    return { user, message: `A verification link was sent to ${user.email}` };
  });
}

/**
 * Marks the user's email address verified (the administrator confirmed it another way): the row,
 * the outstanding verification links used up, an audit row. No event: nothing the Pro app sees
 * changes, and the welcome email belongs to the user's own confirmation.
 * @throws UserError USER_NOT_FOUND, NOT_ALLOWED.
 */
export async function markEmailVerified(props: AccountActionProps): Promise<AccountActionResult> {
  return props.db.prisma.$transaction(async (tx) => {
    const target = await findManagedUser(tx, { ...props, selfMessage: OWN_ACCOUNT_MESSAGE });
    if (target.emailVerified) return { user: target, message: "The email address is verified" };
    const user = await tx.user.update({ where: { id: target.id }, data: { emailVerified: true } });
    await tx.oneTimeToken.updateMany({
      where: { userId: user.id, purpose: "email_verification", usedAt: null },
      data: { usedAt: new Date() },
    });
    await audit(tx, {
      action: "user.email_marked_verified",
      actorId: props.actor.id,
      targetType: "user",
      targetId: user.id,
      ip: props.ip,
      metadata: { email: user.email, from: false, to: true },
    });
    return { user, message: "The email address is verified" };
  });
}

/**
 * Sends the user the normal password-reset email (requestPasswordReset: a 60-minute single-use
 * link); the password itself is unchanged until the user follows it. Audited.
 * @throws UserError USER_NOT_FOUND, NOT_ALLOWED; also when the account is not active (the link
 * could not be used).
 */
export async function sendPasswordReset(props: AccountActionProps): Promise<AccountActionResult> {
  const user = await props.db.prisma.$transaction(async (tx) => {
    const target = await findManagedUser(tx, { ...props, selfMessage: OWN_ACCOUNT_MESSAGE });
    assertActive(target);
    await audit(tx, {
      action: "user.password_reset_sent",
      actorId: props.actor.id,
      targetType: "user",
      targetId: target.id,
      ip: props.ip,
      metadata: { email: target.email },
    });
    return target;
  });
  await requestPasswordReset({ db: props.db, email: user.email });
  return { user, message: `Password reset instructions were sent to ${user.email}` };
}

/**
 * Clears the user's security questions: the questions and answers deleted, securityQuestionsSet
 * false and, since an enhanced sign-in cannot go on without questions, securityLevel back to
 * standard; a raised version, user.updated and an audit row with before and after.
 * @throws UserError USER_NOT_FOUND, NOT_ALLOWED.
 */
export async function clearSecurityQuestions(props: AccountActionProps): Promise<AccountActionResult> {
  return props.db.prisma.$transaction(async (tx) => {
    const target = await findManagedUser(tx, { ...props, selfMessage: OWN_ACCOUNT_MESSAGE });
    const message = "The security questions are cleared";
    if (!target.securityQuestionsSet && target.securityLevel === "standard") {
      await tx.securityQuestions.deleteMany({ where: { userId: target.id } });
      return { user: target, message };
    }
    await tx.securityQuestions.deleteMany({ where: { userId: target.id } });
    const user = await tx.user.update({
      where: { id: target.id },
      data: { securityQuestionsSet: false, securityLevel: "standard", version: { increment: 1 } },
    });
    await emit(
      tx,
      {
        type: "user.updated",
        payload: {
          ...eventContact(user),
          changedFields:
            target.securityLevel === user.securityLevel
              ? ["securityQuestionsSet"]
              : ["securityQuestionsSet", "securityLevel"],
          userType: user.userType,
          userVersion: user.version,
          snapshot: syncSnapshot(user),
        },
      },
      { actor: { kind: "admin", userId: props.actor.id } },
    );
    await audit(tx, {
      action: "user.security_questions_cleared",
      actorId: props.actor.id,
      targetType: "user",
      targetId: user.id,
      ip: props.ip,
      metadata: {
        before: { securityQuestionsSet: target.securityQuestionsSet, securityLevel: target.securityLevel },
        after: { securityQuestionsSet: false, securityLevel: "standard" },
      },
    });
    return { user, message };
  });
}

/**
 * Ends one or all of a user's sessions as an administrator: the rules first, then `revoke` (the
 * session store's work, which answers how many ended), then the audit row. Ending all also sets the
 * user's sessionsValidAfter, so a session the store missed is refused when next used.
 * @throws UserError USER_NOT_FOUND, NOT_ALLOWED; what `revoke` throws.
 */
export async function revokeUserSessions(props: {
  db: Db;
  actor: Actor;
  userId: number;
  which: "one" | "all";
  ip?: string | null;
  revoke(): Promise<number>;
}): Promise<number> {
  return props.db.prisma.$transaction(async (tx) => {
    const target = await findManagedUser(tx, { ...props, selfMessage: OWN_ACCOUNT_MESSAGE });
    if (props.which === "all") {
      await tx.user.update({ where: { id: target.id }, data: { sessionsValidAfter: new Date() } });
    }
    const ended = await props.revoke();
    await audit(tx, {
      action: props.which === "all" ? "user.sessions_revoked" : "user.session_revoked",
      actorId: props.actor.id,
      targetType: "user",
      targetId: target.id,
      ip: props.ip,
      metadata: { ended },
    });
    return ended;
  });
}

/** A note the user sent the team, as the drawer's history shows it. */
export interface NoteHistoryView {
  id: number;
  notes: string;
  wordCount: number;
  createdAt: Date;
}

/** The notes a user sent the team, newest first (at most `limit`). */
export async function listNoteHistory(props: {
  db: Db;
  userId: number;
  limit?: number;
}): Promise<NoteHistoryView[]> {
  return props.db.prisma.noteHistory.findMany({
    where: { userId: props.userId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: props.limit ?? 100,
    select: { id: true, notes: true, wordCount: true, createdAt: true },
  });
}

/** @throws UserError NOT_ALLOWED for an account that is not active (an email to it waits for that). */
export function assertActive(user: User): void {
  if (user.userStatus !== "active") {
    throw new UserError("NOT_ALLOWED", `This account is ${user.userStatus}: activate it first`);
  }
}
