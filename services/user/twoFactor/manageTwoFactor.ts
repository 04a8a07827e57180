import { audit } from "@services/shared/audit";
import type { Db, Tx } from "@services/shared/db";
import type { User } from "@services/shared/generated/prisma/client";
import { UserError } from "../errors";
import { getPublicBranding } from "../getPublicBranding";
import { currentSecuritySettings, twoFactorRequiredOf } from "../securitySettings";
import { newPendingSecret, spendAuthenticatorCode } from "./authenticator";
import { invalidCode, recordTwoFactorChange } from "./changes";
import { refreshTwoFactorEnabled } from "./methods";
import {
  type PasskeyView,
  passkeyView,
  type RelyingParty,
  registrationOptions,
  verifyRegistration,
} from "./passkeys";
import { replaceRecoveryCodes } from "./recoveryCodes";
import { totpUri } from "./totp";

// The owner's management of their two-factor sign-in (the user menu's "Two-factor sign-in"), and a
// mainAdmin's reset of another user's. The gateway checks that a change which needs it follows a
// fresh proof of identity (./secondFactor.ts, confirmIdentity); every change is audited and emails
// the user (./changes.ts).

/** What the owner's page shows. */
export interface TwoFactorStatus {
  enabled: boolean;
  /** the settings require a second factor of this user */
  required: boolean;
  authenticator: { addedAt: Date } | null;
  passkeys: PasskeyView[];
  recoveryCodesLeft: number;
}

export const AUTHENTICATOR_EXISTS_MESSAGE =
  "An authenticator app is already set up. Remove it before adding another.";
export const REQUIRED_BY_POLICY_MESSAGE =
  "Two-factor sign-in is required for your account. Add another method before removing this one.";
export const NOT_ENABLED_MESSAGE = "Two-factor sign-in is not turned on for this account.";
export const PASSKEY_NOT_FOUND_MESSAGE = "Passkey not found";
export const PASSKEY_REFUSED_MESSAGE = "The passkey could not be added. Please try again.";

type Owner = Pick<User, "id" | "email" | "firstName" | "lastName" | "uniqueId" | "userType">;

/** The user's second factors as their page shows them. @throws Prisma errors. */
export async function getTwoFactorStatus(props: { db: Db; user: Owner }): Promise<TwoFactorStatus> {
  const { db, user } = props;
  const [authenticator, passkeys, recoveryCodesLeft, settings] = await Promise.all([
    db.prisma.twoFactorAuthenticator.findUnique({ where: { userId: user.id } }),
    db.prisma.passkey.findMany({ where: { userId: user.id }, orderBy: { id: "asc" } }),
    db.prisma.recoveryCode.count({ where: { userId: user.id, usedAt: null } }),
    currentSecuritySettings(db),
  ]);
  const confirmed = authenticator?.confirmedAt ?? null;
  return {
    enabled: confirmed !== null || passkeys.length > 0,
    required: twoFactorRequiredOf(settings, user),
    authenticator: confirmed ? { addedAt: confirmed } : null,
    passkeys: passkeys.map(passkeyView),
    recoveryCodesLeft,
  };
}

/**
 * Starts setting up an authenticator app: a new secret (replacing one not yet confirmed), as text
 * and as the otpauth:// URI the page shows as a QR code. It counts once a first code confirms it.
 * @throws UserError TWO_FACTOR_CONFLICT when an authenticator is set up already.
 */
export async function startAuthenticator(props: {
  db: Db;
  user: Owner;
}): Promise<{ secret: string; otpauthUri: string }> {
  const { db, user } = props;
  const [existing, branding] = await Promise.all([
    db.prisma.twoFactorAuthenticator.findUnique({
      where: { userId: user.id },
      select: { confirmedAt: true },
    }),
    getPublicBranding({ db }),
  ]);
  if (existing?.confirmedAt) throw new UserError("TWO_FACTOR_CONFLICT", AUTHENTICATOR_EXISTS_MESSAGE);
  const secret = await db.prisma.$transaction((tx) => newPendingSecret(tx, user.id));
  return { secret, otpauthUri: totpUri({ secret, issuer: branding.title, account: user.email }) };
}

/**
 * Recovery codes for a user whose first second factor this is (in the caller's transaction): ten
 * new ones when none are left unused, else null (the ones they hold stay).
 */
async function firstRecoveryCodes(tx: Tx, userId: number) {
  const unused = await tx.recoveryCode.count({ where: { userId, usedAt: null } });
  return unused === 0 ? replaceRecoveryCodes(tx, userId) : null;
}

/**
 * Confirms the authenticator being set up with a first code; from then on it is asked at sign-in.
 * Returns the recovery codes when these are the user's first (shown once), else null.
 * @throws UserError INVALID_TWO_FACTOR_CODE (details.errors.code) when the code does not match (or
 * nothing is being set up).
 */
export async function confirmAuthenticator(props: {
  db: Db;
  user: Owner;
  code: string;
  ip?: string | null;
}): Promise<{ recoveryCodes: string[] | null }> {
  const { db, user } = props;
  return db.prisma.$transaction(async (tx) => {
    if (!(await spendAuthenticatorCode(tx, { userId: user.id, code: props.code, pending: true }))) {
      throw invalidCode();
    }
    await refreshTwoFactorEnabled(tx, user.id);
    const recoveryCodes = await firstRecoveryCodes(tx, user.id);
    await recordTwoFactorChange(tx, { user, change: "authenticator_added", ip: props.ip });
    return { recoveryCodes };
  });
}

/**
 * Refuses a removal that would leave a user whom the settings require to hold a second factor
 * without one. @throws UserError TWO_FACTOR_CONFLICT.
 */
async function assertKeepsOne(db: Db, user: Owner, leavesNone: boolean): Promise<void> {
  if (leavesNone && twoFactorRequiredOf(await currentSecuritySettings(db), user)) {
    throw new UserError("TWO_FACTOR_CONFLICT", REQUIRED_BY_POLICY_MESSAGE);
  }
}

/**
 * Removes the user's authenticator app (set up or being set up).
 * @throws UserError TWO_FACTOR_CONFLICT when the settings require a second factor and it is the
 * last, or when there is none.
 */
export async function removeAuthenticator(props: { db: Db; user: Owner; ip?: string | null }): Promise<void> {
  const { db, user } = props;
  const [authenticator, passkeys] = await Promise.all([
    db.prisma.twoFactorAuthenticator.findUnique({ where: { userId: user.id } }),
    db.prisma.passkey.count({ where: { userId: user.id } }),
  ]);
  if (!authenticator) throw new UserError("TWO_FACTOR_CONFLICT", "No authenticator app is set up.");
  if (authenticator.confirmedAt) await assertKeepsOne(db, user, passkeys === 0);
  await db.prisma.$transaction(async (tx) => {
    await tx.twoFactorAuthenticator.deleteMany({ where: { userId: user.id } });
    await refreshTwoFactorEnabled(tx, user.id);
    if (authenticator.confirmedAt) {
      await recordTwoFactorChange(tx, { user, change: "authenticator_removed", ip: props.ip });
    }
  });
}

/** The options of a new passkey; the caller keeps `challenge` for {@link addPasskey}. */
export async function passkeyRegistrationOptions(props: { db: Db; user: Owner; rp: RelyingParty }) {
  return registrationOptions(props);
}

/**
 * Adds a passkey from the browser's answer to {@link passkeyRegistrationOptions}. Returns it, and
 * the recovery codes when these are the user's first (shown once), else null.
 * @throws UserError INVALID_TWO_FACTOR_CODE (PASSKEY_REFUSED_MESSAGE) when the answer does not hold
 * or names a passkey the portal already has.
 */
export async function addPasskey(props: {
  db: Db;
  user: Owner;
  rp: RelyingParty;
  name: string;
  response: unknown;
  challenge: string;
  ip?: string | null;
}): Promise<{ passkey: PasskeyView; recoveryCodes: string[] | null }> {
  const { db, user } = props;
  const credential = await verifyRegistration(props);
  if (!credential) throw invalidCode(PASSKEY_REFUSED_MESSAGE);
  return db.prisma.$transaction(async (tx) => {
    if (
      await tx.passkey.findUnique({ where: { credentialId: credential.credentialId }, select: { id: true } })
    ) {
      throw invalidCode(PASSKEY_REFUSED_MESSAGE);
    }
    const passkey = await tx.passkey.create({
      data: {
        userId: user.id,
        credentialId: credential.credentialId,
        publicKey: Buffer.from(credential.publicKey),
        counter: BigInt(credential.counter),
        transports: credential.transports,
        backedUp: credential.backedUp,
        name: props.name,
      },
    });
    await refreshTwoFactorEnabled(tx, user.id);
    const recoveryCodes = await firstRecoveryCodes(tx, user.id);
    await recordTwoFactorChange(tx, { user, change: "passkey_added", ip: props.ip, passkeyName: props.name });
    return { passkey: passkeyView(passkey), recoveryCodes };
  });
}

/**
 * Renames one of the user's passkeys (audited; no email: nothing about the sign-in changes).
 * @throws UserError USER_NOT_FOUND (PASSKEY_NOT_FOUND_MESSAGE) when it is not theirs.
 */
export async function renamePasskey(props: {
  db: Db;
  user: Owner;
  passkeyId: number;
  name: string;
  ip?: string | null;
}): Promise<PasskeyView> {
  const { db, user } = props;
  return db.prisma.$transaction(async (tx) => {
    const found = await tx.passkey.findFirst({ where: { id: props.passkeyId, userId: user.id } });
    if (!found) throw new UserError("USER_NOT_FOUND", PASSKEY_NOT_FOUND_MESSAGE);
    const passkey = await tx.passkey.update({ where: { id: found.id }, data: { name: props.name } });
    await audit(tx, {
      action: "user.two_factor_passkey_renamed",
      actorId: user.id,
      targetType: "user",
      targetId: user.id,
      ip: props.ip,
      before: { name: found.name },
      after: { name: props.name },
    });
    return passkeyView(passkey);
  });
}

/**
 * Removes one of the user's passkeys.
 * @throws UserError USER_NOT_FOUND (not theirs), TWO_FACTOR_CONFLICT (required and the last).
 */
export async function removePasskey(props: {
  db: Db;
  user: Owner;
  passkeyId: number;
  ip?: string | null;
}): Promise<void> {
  const { db, user } = props;
  const [found, others, authenticator] = await Promise.all([
    db.prisma.passkey.findFirst({ where: { id: props.passkeyId, userId: user.id } }),
    db.prisma.passkey.count({ where: { userId: user.id, id: { not: props.passkeyId } } }),
    db.prisma.twoFactorAuthenticator.findFirst({ where: { userId: user.id, confirmedAt: { not: null } } }),
  ]);
  if (!found) throw new UserError("USER_NOT_FOUND", PASSKEY_NOT_FOUND_MESSAGE);
  await assertKeepsOne(db, user, others === 0 && !authenticator);
  await db.prisma.$transaction(async (tx) => {
    await tx.passkey.deleteMany({ where: { id: found.id, userId: user.id } });
    await refreshTwoFactorEnabled(tx, user.id);
    await recordTwoFactorChange(tx, {
      user,
      change: "passkey_removed",
      ip: props.ip,
      passkeyName: found.name,
    });
  });
}

/** @throws UserError TWO_FACTOR_CONFLICT when two-factor sign-in is off for `userId`. */
async function assertEnabled(tx: Tx, userId: number): Promise<void> {
  const row = await tx.user.findUnique({ where: { id: userId }, select: { twoFactorEnabled: true } });
  if (!row?.twoFactorEnabled) throw new UserError("TWO_FACTOR_CONFLICT", NOT_ENABLED_MESSAGE);
}

/**
 * Ten new recovery codes in place of the old ones (shown once).
 * @throws UserError TWO_FACTOR_CONFLICT when two-factor sign-in is off.
 */
export async function regenerateRecoveryCodes(props: {
  db: Db;
  user: Owner;
  ip?: string | null;
}): Promise<{ recoveryCodes: string[] }> {
  const { db, user } = props;
  return db.prisma.$transaction(async (tx) => {
    await assertEnabled(tx, user.id);
    const recoveryCodes = await replaceRecoveryCodes(tx, user.id);
    await recordTwoFactorChange(tx, { user, change: "recovery_codes_regenerated", ip: props.ip });
    return { recoveryCodes };
  });
}

/** Removes every second factor of `userId` and its recovery codes, in the caller's transaction. */
async function removeEverything(
  tx: Parameters<typeof replaceRecoveryCodes>[0],
  userId: number,
): Promise<void> {
  await tx.twoFactorAuthenticator.deleteMany({ where: { userId } });
  await tx.passkey.deleteMany({ where: { userId } });
  await refreshTwoFactorEnabled(tx, userId);
}

/**
 * Turns two-factor sign-in off: the authenticator, every passkey and the recovery codes go.
 * @throws UserError TWO_FACTOR_CONFLICT when it is off, or the settings require it of the user.
 */
export async function turnOffTwoFactor(props: { db: Db; user: Owner; ip?: string | null }): Promise<void> {
  const { db, user } = props;
  await assertEnabled(db.prisma, user.id);
  if (twoFactorRequiredOf(await currentSecuritySettings(db), user)) {
    throw new UserError("TWO_FACTOR_CONFLICT", "Two-factor sign-in is required for your account.");
  }
  await db.prisma.$transaction(async (tx) => {
    await removeEverything(tx, user.id);
    await recordTwoFactorChange(tx, { user, change: "two_factor_turned_off", ip: props.ip });
  });
}

export const OWN_RESET_MESSAGE =
  "You cannot reset your own two-factor sign-in. Sign in with a recovery code and set it up again.";

/**
 * A mainAdmin resets another user's second factor (a lost phone): every factor and recovery code
 * goes, the user is told by email; at their next sign-in the password alone lets them in (or, when
 * the settings require a second factor, to the enrolment page only).
 * @throws UserError NOT_ALLOWED (not a mainAdmin, or their own), USER_NOT_FOUND,
 * TWO_FACTOR_CONFLICT (the user has none).
 */
export async function resetTwoFactor(props: {
  db: Db;
  actor: { id: number; userType: User["userType"] };
  userId: number;
  ip?: string | null;
}): Promise<{ user: User; message: string }> {
  const { db, actor } = props;
  if (actor.userType !== "mainAdmin") {
    throw new UserError("NOT_ALLOWED", "Only a mainAdmin can reset another user's two-factor sign-in.");
  }
  if (actor.id === props.userId) throw new UserError("NOT_ALLOWED", OWN_RESET_MESSAGE);
  return db.prisma.$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id: props.userId } });
    if (!user) throw new UserError("USER_NOT_FOUND", "User not found");
    if (!user.twoFactorEnabled) throw new UserError("TWO_FACTOR_CONFLICT", NOT_ENABLED_MESSAGE);
    await removeEverything(tx, user.id);
    await recordTwoFactorChange(tx, { user, change: "two_factor_reset", actorId: actor.id, ip: props.ip });
    return {
      user: { ...user, twoFactorEnabled: false },
      message: `Two-factor sign-in was reset for ${user.firstName} ${user.lastName}. They were told by email.`,
    };
  });
}

/** A user's two-factor sign-in as the admin console's drawer shows it. */
export interface AdminTwoFactorView {
  enabled: boolean;
  authenticator: boolean;
  passkeys: number;
  recoveryCodesLeft: number;
}

/** What second factors `userId` holds (manage:users, checked by the caller). @throws Prisma errors. */
export async function adminTwoFactorView(props: { db: Db; userId: number }): Promise<AdminTwoFactorView> {
  const { db, userId } = props;
  const [authenticator, passkeys, recoveryCodesLeft] = await Promise.all([
    db.prisma.twoFactorAuthenticator.count({ where: { userId, confirmedAt: { not: null } } }),
    db.prisma.passkey.count({ where: { userId } }),
    db.prisma.recoveryCode.count({ where: { userId, usedAt: null } }),
  ]);
  return {
    enabled: authenticator > 0 || passkeys > 0,
    authenticator: authenticator > 0,
    passkeys,
    recoveryCodesLeft,
  };
}
