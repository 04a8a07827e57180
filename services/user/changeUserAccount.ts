import { audit } from "@services/shared/audit";
import type { Db, Tx } from "@services/shared/db";
import { type EmitEvent, emit } from "@services/shared/events";
import type { Prisma, User } from "@services/shared/generated/prisma/client";
import type { UserType } from "@services/shared/generated/prisma/enums";
import { UserError } from "./errors";
import { eventContact } from "./eventContact";
import { assertMayGrant } from "./grants";
import { syncSnapshot } from "./syncSnapshot";

export const OWN_TYPE_OR_STATUS_MESSAGE = "You cannot change your own user type or status";
export const OWN_ACCOUNT_MESSAGE =
  "You cannot manage your own account here; use your own profile and security pages";

/**
 * The rules every administrator change to an account obeys (DECISIONS.md, Roles and permissions):
 * nobody changes their own type or status; a userAdmin manages prospects, users and clients; only a
 * mainAdmin grants or removes mainAdmin and userAdmin ({@link mayGrantType}).
 * @throws UserError NOT_ALLOWED.
 */
export function assertMayChangeAccount(props: {
  actor: { id: number; userType: UserType };
  target: User;
  newType?: UserType;
  /** the refusal of a change to one's own account (default: the type-or-status message) */
  selfMessage?: string;
}): void {
  const { actor, target } = props;
  if (actor.id === target.id) {
    throw new UserError("NOT_ALLOWED", props.selfMessage ?? OWN_TYPE_OR_STATUS_MESSAGE);
  }
  assertMayGrant(actor.userType, target.userType, ...(props.newType === undefined ? [] : [props.newType]));
}

/**
 * The account `userId` as it is, locked for the transaction, once the actor may change it
 * ({@link assertMayChangeAccount}): every one-user administrator operation starts here.
 * @throws UserError USER_NOT_FOUND, NOT_ALLOWED.
 */
export async function findManagedUser(
  tx: Tx,
  props: {
    actor: { id: number; userType: UserType };
    userId: number;
    newType?: UserType;
    selfMessage?: string;
  },
): Promise<User> {
  const [locked] = await tx.$queryRaw<
    { id: number }[]
  >`SELECT id FROM users WHERE id = ${props.userId} FOR UPDATE`;
  const target = locked ? await tx.user.findUnique({ where: { id: locked.id } }) : null;
  if (!target) throw new UserError("USER_NOT_FOUND", "User not found");
  assertMayChangeAccount({
    actor: props.actor,
    target,
    newType: props.newType,
    selfMessage: props.selfMessage,
  });
  return target;
}

/** What every administrator's command on users takes: the database, who acts, and from where. */
export interface AdminCommandProps {
  db: Db;
  actor: { id: number; userType: UserType };
  ip?: string | null;
}

/** user.updated for a change of one field, with the sync snapshot the Pro app receives. */
export function userUpdated(field: "accessLevel" | "userType"): (user: User) => EmitEvent<"user.updated"> {
  return (user) => ({
    type: "user.updated",
    payload: {
      ...eventContact(user),
      changedFields: [field],
      userType: user.userType,
      userVersion: user.version,
      snapshot: syncSnapshot(user),
    },
  });
}

/** What one administrator change does to an account, given the account as it was. */
export interface AccountChange<T extends "user.updated" | "user.status_changed"> {
  /** the type the change would give the account (for the mainAdmin rule) */
  newType?: UserType;
  /** the field compared before and after: no change, no write, no event */
  field: "userType" | "userStatus" | "accessLevel";
  to: User["userType"] | User["userStatus"] | User["accessLevel"];
  /** what is written besides the field and a raised version */
  also?: Prisma.UserUpdateInput;
  /** the event, with the account after the change */
  event(user: User, before: User): EmitEvent<T>;
  /** the audit row's action */
  action: string;
}

/**
 * Applies an administrator's change to an account in one transaction: the rules of
 * {@link assertMayChangeAccount}, the row (the field, a raised version, `also`), the event and an
 * audit row with the field's before and after. Nothing is written when the field already holds the
 * value.
 * @throws UserError USER_NOT_FOUND, NOT_ALLOWED.
 */
export async function changeAccount<T extends "user.updated" | "user.status_changed">(
  props: AdminCommandProps & { userId: number; change: AccountChange<T> },
): Promise<User> {
  const { change } = props;
  return props.db.prisma.$transaction(async (tx) => {
    const target = await findManagedUser(tx, {
      actor: props.actor,
      userId: props.userId,
      newType: change.newType,
    });
    if (target[change.field] === change.to) return target;
    const user = await tx.user.update({
      where: { id: target.id },
      data: { [change.field]: change.to, ...change.also, version: { increment: 1 } },
    });
    await emit(tx, change.event(user, target), { actor: { kind: "admin", userId: props.actor.id } });
    await audit(tx, {
      action: change.action,
      actorId: props.actor.id,
      targetType: "user",
      targetId: user.id,
      ip: props.ip,
      metadata: { from: target[change.field], to: user[change.field] },
    });
    return user;
  });
}
