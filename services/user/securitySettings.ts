import {
  passwordLengthProblem,
  type SecuritySettingsValues,
  securitySettingsSchema,
} from "@schema/validation/security";
import { audit } from "@services/shared/audit";
import type { Db, PreparedStatement } from "@services/shared/db";
import { AppError } from "@services/shared/errors";
import type { SecuritySettings } from "@services/shared/generated/prisma/client";
import type { UserType } from "@services/shared/generated/prisma/enums";
import type { RateLimitRules } from "@services/shared/rateLimit";
import { parse, type SettingsUpdateProps } from "@services/shared/validation";
import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from "./commonPasswords";
import { UserError } from "./errors";
import { ADMIN_TYPES } from "./grants";

// The security settings (issue 12, manage:config, checked by the caller), one row (id 1). The
// sign-in reads its switches at every attempt; the password minimum and the sign-in rate limits go
// through a cache of this process that a save here clears at once and that expires within
// SETTINGS_CACHE_MS elsewhere, so every change applies to the next sign-in without a restart.

/** How long another process may use the settings it read: a change reaches it within this. */
export const SETTINGS_CACHE_MS = 5000;

/** The settings in force, every switch known. */
export type SecuritySettingsInForce = Required<SecuritySettingsValues>;

/** The settings when the row is missing (the migration's defaults: the portal as it was). */
export const SECURITY_DEFAULTS: SecuritySettingsInForce = {
  requireVerifiedEmail: true,
  revealUnknownAccounts: false,
  requireEnhancedForAdmins: false,
  requireTwoFactorForAdmins: false,
  requireTwoFactorForEveryone: false,
  minPasswordLength: 8,
  loginIpAttempts: 100,
  loginAccountFreeFailures: 5,
  loginAccountMaxDelayMinutes: 15,
};

/** The spec's session timings (spec §4, §9), shown read-only: the client's idle tracking keeps them. */
export const SESSION_TIMINGS = {
  idleTimeoutMinutes: 30,
  idleWarningMinutes: 28,
  idleCheckSeconds: 30,
  sessionCheckMinutes: 15,
  absoluteLifetimeHours: 12,
} as const;

/** The settings as the admin page shows them. */
export interface SecuritySettingsView extends SecuritySettingsInForce {
  sessionTimings: typeof SESSION_TIMINGS;
  /** administrators (mainAdmin, userAdmin) who have no security questions yet */
  adminsWithoutQuestions: number;
  updatedAt: Date | null;
  updatedBy: string | null;
}

/** Who changes the settings: the signed-in administrator. */
export interface SecurityActor {
  id: number;
  name: string;
}

export const OWN_TWO_FACTOR_FIRST_MESSAGE = "Set up your own two-factor sign-in before requiring it";

export const OWN_QUESTIONS_FIRST_MESSAGE =
  "Set your own security questions before requiring them of administrators";

function values(row: SecuritySettings | null): SecuritySettingsInForce {
  if (!row) return { ...SECURITY_DEFAULTS };
  return {
    requireVerifiedEmail: row.requireVerifiedEmail,
    revealUnknownAccounts: row.revealUnknownAccounts,
    requireEnhancedForAdmins: row.requireEnhancedForAdmins,
    requireTwoFactorForAdmins: row.requireTwoFactorForAdmins,
    requireTwoFactorForEveryone: row.requireTwoFactorForEveryone,
    minPasswordLength: row.minPasswordLength,
    loginIpAttempts: row.loginIpAttempts,
    loginAccountFreeFailures: row.loginAccountFreeFailures,
    loginAccountMaxDelayMinutes: row.loginAccountMaxDelayMinutes,
  };
}

const cache = new WeakMap<Db, { at: number; value: SecuritySettingsInForce }>();

// a prepared statement past Prisma: the sign-in path reads it (as loginUser's own settings read)
const CURRENT_SETTINGS: PreparedStatement = {
  name: "security_settings_current",
  text: `SELECT "requireVerifiedEmail", "revealUnknownAccounts", "requireEnhancedForAdmins",
    "requireTwoFactorForAdmins", "requireTwoFactorForEveryone", "minPasswordLength",
    "loginIpAttempts", "loginAccountFreeFailures", "loginAccountMaxDelayMinutes" FROM security_settings WHERE id = 1`,
};

/**
 * The settings in force, read at most SETTINGS_CACHE_MS ago by this process (a save here clears it).
 * @throws Prisma errors.
 */
export async function currentSecuritySettings(db: Db): Promise<SecuritySettingsInForce> {
  const hit = cache.get(db);
  if (hit && Date.now() - hit.at < SETTINGS_CACHE_MS) return hit.value;
  const [row] = await db.queryRows<SecuritySettingsInForce>(CURRENT_SETTINGS, []);
  const value = row ? { ...row } : { ...SECURITY_DEFAULTS };
  cache.set(db, { at: Date.now(), value });
  return value;
}

/**
 * Whether `user`'s session is limited to verifying the email (issue 20): the address is unverified
 * while the settings require a verified email to sign in. Such a session may read its own account,
 * verify, ask for a new link and sign out, and nothing else. Reads the settings only for an
 * unverified user (a 5 s cache).
 * @throws the database driver's error.
 */
export async function sessionAwaitsVerification(db: Db, user: { emailVerified: boolean }): Promise<boolean> {
  if (user.emailVerified) return false;
  return (await currentSecuritySettings(db)).requireVerifiedEmail;
}

/** What a session of a signed-in user is limited to (issue 20), when it is not a full one. */
export type SessionLimit = "verification" | "twoFactorEnrolment";

/**
 * Whether `user` must hold a second factor by the settings: every user when they require it of
 * everyone, administrators (mainAdmin, userAdmin) when they require it of administrators.
 */
export function twoFactorRequiredOf(
  settings: SecuritySettingsInForce,
  user: { userType: UserType },
): boolean {
  return (
    settings.requireTwoFactorForEveryone ||
    (settings.requireTwoFactorForAdmins && ADMIN_TYPES.includes(user.userType))
  );
}

/**
 * What `user`'s session is limited to, or null for a full session: verifying the email (it is
 * unverified while the settings require a verified one), or enrolling a second factor (the settings
 * require one of the user, who holds none: the enrolment page only). Reads the settings through the
 * 5-second cache, only for users who might be limited.
 * @throws the database driver's error.
 */
export async function sessionLimitOf(
  db: Db,
  user: { emailVerified: boolean; twoFactorEnabled: boolean; userType: UserType },
): Promise<SessionLimit | null> {
  if (user.emailVerified && user.twoFactorEnabled) return null;
  const settings = await currentSecuritySettings(db);
  if (!user.emailVerified && settings.requireVerifiedEmail) return "verification";
  if (!user.twoFactorEnabled && twoFactorRequiredOf(settings, user)) return "twoFactorEnrolment";
  return null;
}

/** Forgets this process's cached settings of `db` (after a save). */
export function forgetSecuritySettings(db: Db): void {
  cache.delete(db);
}

/**
 * The sign-in rate limits the settings give (services/shared/rateLimit.ts reads them at each
 * attempt): failed sign-ins per address per 15 minutes, and the backoff of one account from one
 * address. The looser limit of one account from anywhere stays as it is.
 * @throws Prisma errors.
 */
export async function signInRateRules(db: Db): Promise<Partial<RateLimitRules>> {
  const s = await currentSecuritySettings(db);
  return {
    loginIp: { points: s.loginIpAttempts, durationSec: 15 * 60 },
    loginAccount: {
      free: s.loginAccountFreeFailures,
      maxDelaySec: s.loginAccountMaxDelayMinutes * 60,
      memorySec: 24 * 60 * 60,
    },
  };
}

/**
 * Refuses a new password (registration, reset, change, invitation) that is shorter than the stored
 * minimum or one of the most common passwords; the spec's digit and special-character rules are the
 * shared schema's, checked before.
 * @throws AppError VALIDATION_FAILED 'Password must be at least {n} characters' (details.errors[field]);
 * UserError COMMON_PASSWORD.
 */
export async function assertPasswordAllowed(props: {
  db: Db;
  password: string;
  /** the form field the message belongs to */
  field: string;
}): Promise<void> {
  const { minPasswordLength } = await currentSecuritySettings(props.db);
  const tooShort = passwordLengthProblem(props.password, minPasswordLength);
  if (tooShort) {
    throw new AppError("VALIDATION_FAILED", tooShort, { details: { errors: { [props.field]: [tooShort] } } });
  }
  if (isCommonPassword(props.password)) {
    throw new UserError("COMMON_PASSWORD", COMMON_PASSWORD_MESSAGE, {
      errors: { [props.field]: [COMMON_PASSWORD_MESSAGE] },
    });
  }
}

/** The password minimum anyone may read (the registration, reset and invitation forms show it). */
export async function passwordPolicy(db: Db): Promise<{ minLength: number }> {
  return { minLength: (await currentSecuritySettings(db)).minPasswordLength };
}

async function adminsWithoutQuestions(db: Db): Promise<number> {
  return db.prisma.user.count({
    where: { userType: { in: ["mainAdmin", "userAdmin"] }, userStatus: "active", securityQuestions: null },
  });
}

/** The settings, the spec's session timings and who changed them last. @throws Prisma errors. */
export async function getSecuritySettings(db: Db): Promise<SecuritySettingsView> {
  const [row, missing] = await Promise.all([
    db.prisma.securitySettings.findUnique({ where: { id: 1 } }),
    adminsWithoutQuestions(db),
  ]);
  return {
    ...values(row),
    sessionTimings: SESSION_TIMINGS,
    adminsWithoutQuestions: missing,
    updatedAt: row?.updatedAt ?? null,
    updatedBy: row?.updatedBy ?? null,
  };
}

/**
 * Changes the security settings; the next sign-in, registration or password change follows them.
 * Audited (`security.settings_updated`) with before and after; the same values again change nothing.
 * Requiring the enhanced level of administrators needs the acting admin's own questions first, and
 * requiring two-factor sign-in their own second factor, so that saving never locks its author out.
 * @throws AppError VALIDATION_FAILED with the shared schema's message, or OWN_QUESTIONS_FIRST_MESSAGE.
 */
export async function updateSecuritySettings(
  props: SettingsUpdateProps<SecurityActor>,
): Promise<SecuritySettingsView> {
  const input = parse(securitySettingsSchema, props.input);
  const { db } = props;
  const changed = await db.prisma.$transaction(async (tx) => {
    await tx.securitySettings.upsert({ where: { id: 1 }, create: { id: 1 }, update: {} });
    await tx.$queryRaw`SELECT id FROM security_settings WHERE id = 1 FOR UPDATE`;
    const before = values(await tx.securitySettings.findUnique({ where: { id: 1 } }));
    const keys = (Object.keys(input) as (keyof SecuritySettingsValues)[]).filter(
      (k) => input[k] !== undefined && before[k] !== input[k],
    );
    if (keys.length === 0) return false;
    if (input.requireEnhancedForAdmins && !before.requireEnhancedForAdmins) {
      const own = await tx.securityQuestions.findUnique({ where: { userId: props.actor.id } });
      if (!own) {
        throw new AppError("VALIDATION_FAILED", OWN_QUESTIONS_FIRST_MESSAGE, {
          details: { errors: { requireEnhancedForAdmins: [OWN_QUESTIONS_FIRST_MESSAGE] } },
        });
      }
    }
    const requiresTwoFactorAnew =
      (input.requireTwoFactorForAdmins === true && !before.requireTwoFactorForAdmins) ||
      (input.requireTwoFactorForEveryone === true && !before.requireTwoFactorForEveryone);
    if (requiresTwoFactorAnew) {
      const own = await tx.user.findUnique({
        where: { id: props.actor.id },
        select: { twoFactorEnabled: true },
      });
      if (!own?.twoFactorEnabled) {
        const field = input.requireTwoFactorForEveryone
          ? "requireTwoFactorForEveryone"
          : "requireTwoFactorForAdmins";
        throw new AppError("VALIDATION_FAILED", OWN_TWO_FACTOR_FIRST_MESSAGE, {
          details: { errors: { [field]: [OWN_TWO_FACTOR_FIRST_MESSAGE] } },
        });
      }
    }
    await tx.securitySettings.update({ where: { id: 1 }, data: { ...input, updatedBy: props.actor.name } });
    await audit(tx, {
      action: "security.settings_updated",
      actorId: props.actor.id,
      targetType: "security_settings",
      targetId: 1,
      ip: props.ip,
      before: { ...before },
      after: { ...input },
      metadata: { changed: keys },
    });
    return true;
  });
  if (changed) forgetSecuritySettings(db);
  return getSecuritySettings(db);
}

/**
 * "Sign out everyone else": every session granted before now is refused at its next request (each
 * user's sessionsValidAfter), the caller's own excepted (the caller re-stamps it). Audited.
 * Returns the moment the sessions were cut off and how many accounts it touched.
 * @throws Prisma errors.
 */
export async function signOutEveryoneElse(props: {
  db: Db;
  actor: SecurityActor;
  ip?: string | null;
}): Promise<{ at: Date; accounts: number }> {
  const at = new Date();
  return props.db.prisma.$transaction(async (tx) => {
    const { count } = await tx.user.updateMany({ data: { sessionsValidAfter: at } });
    await audit(tx, {
      action: "security.sessions_revoked_all",
      actorId: props.actor.id,
      targetType: "security_settings",
      targetId: 1,
      ip: props.ip,
      metadata: { accounts: count, keptOwnSession: true },
    });
    return { at, accounts: count };
  });
}
