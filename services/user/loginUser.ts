import { createHash } from "node:crypto";
import { audit } from "@services/shared/audit";
import type { Db, PreparedStatement } from "@services/shared/db";
import type { User } from "@services/shared/generated/prisma/client";
import { currentRequest } from "@services/shared/requestContext";
import { INVALID_CREDENTIALS_MESSAGE, SECURITY_QUESTIONS_REQUIRED_MESSAGE, UserError } from "./errors";
import { USER_COLUMNS } from "./findSessionUser";
import { getPublicBranding } from "./getPublicBranding";
import { hashPassword, verifyPassword } from "./passwords";
import { pinSecurityQuestion } from "./pendingQuestion";
import { type SecondFactorMethod, secondFactorMethods } from "./twoFactor/methods";

export const NEEDS_VERIFICATION_MESSAGE = "Please verify your email before logging in.";

/** What a correct password leads to: the session, or one more step for enhanced security. */
export type LoginOutcome =
  | { kind: "granted"; user: User }
  | {
      kind: "challenge";
      user: User;
      /** the question to answer: the same for every sign-in of the user until answered or `until` */
      question: { index: number; text: string };
      /** when the pending sign-in ends unanswered */
      until: Date;
    }
  | {
      kind: "twoFactor";
      user: User;
      /** the second factors the user may give (issue 20) */
      methods: SecondFactorMethod[];
    };

let dummyHash: Promise<string> | undefined;

/** The security settings' switches a sign-in reads at each attempt. */
interface SignInSettings {
  requireVerifiedEmail: boolean;
  revealUnknownAccounts: boolean;
  requireEnhancedForAdmins: boolean;
}

// The account's row and the sign-in switches in one statement (one round trip where there were two),
// the switches under names no User column has, taken off the row before anyone sees it.
const SETTINGS_COLUMNS = `s."requireVerifiedEmail" AS "signIn.requireVerifiedEmail",
  s."revealUnknownAccounts" AS "signIn.revealUnknownAccounts",
  s."requireEnhancedForAdmins" AS "signIn.requireEnhancedForAdmins"`;
const ACCOUNT_COLUMNS = USER_COLUMNS.split(", ")
  .map((column) => `u.${column}`)
  .join(", ");
const ACCOUNT_BY_EMAIL: PreparedStatement = {
  name: "login_account_with_settings_by_email",
  text: `SELECT ${ACCOUNT_COLUMNS}, ${SETTINGS_COLUMNS} FROM users u
    LEFT JOIN security_settings s ON s.id = 1 WHERE lower(u.email) = lower($1) LIMIT 1`,
};
const ACCOUNT_BY_USERNAME: PreparedStatement = {
  name: "login_account_with_settings_by_username",
  text: `SELECT ${ACCOUNT_COLUMNS}, ${SETTINGS_COLUMNS} FROM users u
    LEFT JOIN security_settings s ON s.id = 1 WHERE lower(u.username) = lower($1) LIMIT 1`,
};
const SIGN_IN_SETTINGS: PreparedStatement = {
  name: "sign_in_settings",
  text: 'SELECT "requireVerifiedEmail", "revealUnknownAccounts", "requireEnhancedForAdmins" FROM security_settings WHERE id = 1',
};

/**
 * The switches read with an account by {@link findLoginAccount}, for the sign-in attempt that found
 * it (held as long as that User object lives; `undefined` inside: no settings row).
 */
const settingsReadWith = new WeakMap<User, SignInSettings | undefined>();

type AccountRow = User & {
  "signIn.requireVerifiedEmail": boolean | null;
  "signIn.revealUnknownAccounts": boolean | null;
  "signIn.requireEnhancedForAdmins": boolean | null;
};
// lastLoginAt and the audit row in one statement: one round trip, and atomic like a transaction
const RECORD_LOGIN: PreparedStatement = {
  name: "record_login",
  text: `WITH u AS (UPDATE users SET "lastLoginAt" = now() WHERE id = $1 RETURNING ${USER_COLUMNS}),
    a AS (INSERT INTO audit_logs (action, "actorId", "targetType", "targetId", ip, "requestId")
          SELECT 'user.login_succeeded', id, 'user', id::text, $2, $3 FROM u)
    SELECT * FROM u`,
};

/**
 * The account a sign-in names: a login with "@" is an email and matches emails only (usernames
 * cannot hold "@"); otherwise the username, case-insensitively. One prepared statement: sign-in is
 * a hot path (benchmark P4).
 * @throws the database driver's error.
 */
export async function findLoginAccount(props: { db: Db; login: string }): Promise<User | null> {
  const login = props.login.trim();
  const [row] = await props.db.queryRows<AccountRow>(
    login.includes("@") ? ACCOUNT_BY_EMAIL : ACCOUNT_BY_USERNAME,
    [login],
  );
  if (!row) return null;
  const {
    "signIn.requireVerifiedEmail": requireVerifiedEmail,
    "signIn.revealUnknownAccounts": revealUnknownAccounts,
    "signIn.requireEnhancedForAdmins": requireEnhancedForAdmins,
    ...user
  } = row;
  settingsReadWith.set(
    user,
    requireVerifiedEmail === null || revealUnknownAccounts === null || requireEnhancedForAdmins === null
      ? undefined
      : { requireVerifiedEmail, revealUnknownAccounts, requireEnhancedForAdmins },
  );
  return user;
}

/** The sign-in switches: those read with `account` when it was found by this attempt, else read now. */
async function signInSettings(db: Db, account: User | null): Promise<SignInSettings | undefined> {
  if (account && settingsReadWith.has(account)) return settingsReadWith.get(account);
  const [row] = await db.queryRows<SignInSettings>(SIGN_IN_SETTINGS, []);
  return row;
}

/** Audits a refused sign-in of a known account (`reason`: what refused it). */
export async function auditFailedSignIn(
  db: Db,
  userId: number,
  reason: string,
  ip: string | null | undefined,
): Promise<void> {
  await audit(db.prisma, {
    action: "user.login_failed",
    actorId: null,
    targetType: "user",
    targetId: userId,
    ip,
    metadata: { reason },
  });
}

/** Audits a first factor accepted, the sign-in waiting for `pending` (a second factor, an answer). */
async function auditPending(db: Db, userId: number, pending: string, ip: string | null | undefined) {
  await audit(db.prisma, {
    action: "user.login_password_accepted",
    actorId: userId,
    targetType: "user",
    targetId: userId,
    ip,
    metadata: { pending },
  });
}

/** How an unknown login is kept in the audit log: a sha256 of it lower-cased, never the text. */
export function loginDigest(login: string): string {
  return createHash("sha256").update(login.trim().toLowerCase()).digest("hex");
}

/**
 * Checks a username-or-email and password (DECISIONS.md, Registration and sign-in) and records the
 * attempt in the audit log. A granted login stamps lastLoginAt; an enhanced-security user gets one of
 * their questions instead, the same one until it is answered or its window ends (the caller keeps
 * the pending step in the session).
 * @throws UserError INVALID_CREDENTIALS (wrong password, or unknown account by default),
 * ACCOUNT_NOT_FOUND (unknown account when revealUnknownAccounts), ACCOUNT_INACTIVE (details.status
 * "deactivated" or "archived"), EMAIL_NOT_VERIFIED (details.needsVerification) when required,
 * SECURITY_QUESTIONS_REQUIRED (enhanced security level, or an administrator while the settings require
 * it of administrators, without questions: no session is granted).
 */
export async function loginUser(props: {
  db: Db;
  login: string;
  password: string;
  ip?: string | null;
  /** the account {@link findLoginAccount} found for `login`, when the caller looked already */
  account?: User | null;
}): Promise<LoginOutcome> {
  const { db } = props;
  const found =
    props.account === undefined ? await findLoginAccount({ db, login: props.login }) : props.account;
  // The switches came with the account (one statement); otherwise (an unknown account, an account
  // the caller found another way) they are read while the password is checked, so that an unknown
  // account takes no longer than a known one. Its failure is the attempt's, as before.
  const settingsRead = signInSettings(db, found);
  settingsRead.catch(() => undefined);

  if (!found) {
    // the same work as a real check, so that timing does not tell accounts apart
    dummyHash ??= hashPassword("no-such-account-0!");
    await verifyPassword(await dummyHash, props.password);
    const settings = await settingsRead;
    await audit(db.prisma, {
      action: "user.login_failed",
      actorId: null,
      targetType: "login_sha256",
      targetId: loginDigest(props.login),
      ip: props.ip,
      metadata: { reason: "unknown_account" },
    });
    if (settings?.revealUnknownAccounts) throw new UserError("ACCOUNT_NOT_FOUND", "Account not found");
    throw new UserError("INVALID_CREDENTIALS", INVALID_CREDENTIALS_MESSAGE);
  }

  const fail = (reason: string) => auditFailedSignIn(db, found.id, reason, props.ip);

  const matches = await verifyPassword(found.password, props.password);
  const settings = await settingsRead;
  if (!matches) {
    await fail("wrong_password");
    throw new UserError("INVALID_CREDENTIALS", INVALID_CREDENTIALS_MESSAGE);
  }
  await admitAccount({ db, user: found, settings, ip: props.ip });
  if (found.twoFactorEnabled) {
    // a second factor is asked before any session exists (issue 20)
    await auditPending(db, found.id, "second_factor", props.ip);
    return { kind: "twoFactor", user: found, methods: await secondFactorMethods(db, found.id) };
  }
  return finishSignIn({ db, user: found, settings, ip: props.ip });
}

/**
 * Completes a sign-in whose factors all passed another way (a second factor after the password, a
 * passkey alone): the account admitted again (its status may have changed meanwhile), then the
 * enhanced level's question or the sign-in granted, the sign-in switches read once for both.
 * @throws UserError ACCOUNT_INACTIVE, EMAIL_NOT_VERIFIED, SECURITY_QUESTIONS_REQUIRED.
 */
export async function completeSignIn(props: {
  db: Db;
  user: User;
  ip?: string | null;
}): Promise<Exclude<LoginOutcome, { kind: "twoFactor" }>> {
  const settings = await signInSettings(props.db, props.user);
  await admitAccount({ ...props, settings });
  return finishSignIn({ ...props, settings });
}

/**
 * The refusals of an account whose first factor (a password, or a passkey) was right: an inactive
 * account, or an unverified email while the settings require a verified one. Audited.
 * @throws UserError ACCOUNT_INACTIVE, EMAIL_NOT_VERIFIED.
 */
async function admitAccount(props: {
  db: Db;
  user: User;
  /** the sign-in switches (undefined: no settings row) */
  settings: SignInSettings | undefined;
  ip?: string | null;
}): Promise<void> {
  const { db, user: found } = props;
  const { settings } = props;
  const fail = (reason: string) => auditFailedSignIn(db, found.id, reason, props.ip);
  if (found.userStatus !== "active") {
    await fail(`status_${found.userStatus}`);
    const status = found.userStatus === "archived" ? "archived" : "deactivated";
    throw new UserError(
      "ACCOUNT_INACTIVE",
      `This account has been ${status}. Please contact support at ${(await getPublicBranding({ db })).supportPhone} for assistance.`,
      { status },
    );
  }
  if ((settings?.requireVerifiedEmail ?? true) && !found.emailVerified) {
    await fail("email_not_verified");
    throw new UserError("EMAIL_NOT_VERIFIED", NEEDS_VERIFICATION_MESSAGE, { needsVerification: true });
  }
}

/**
 * The last step of a sign-in whose factors all passed: the enhanced level's question when the user
 * (or, by the settings, every administrator) has it, else the sign-in recorded and granted.
 * @throws UserError SECURITY_QUESTIONS_REQUIRED (the enhanced level without questions).
 */
async function finishSignIn(props: {
  db: Db;
  user: User;
  settings: SignInSettings | undefined;
  ip?: string | null;
}): Promise<Exclude<LoginOutcome, { kind: "twoFactor" }>> {
  const { db, user: found, settings } = props;
  // the security setting may require the enhanced level of every administrator (issue 12)
  const adminEnhanced =
    settings?.requireEnhancedForAdmins === true &&
    (found.userType === "mainAdmin" || found.userType === "userAdmin");
  if (found.securityLevel === "enhanced" || adminEnhanced) {
    // the question already drawn for a pending sign-in of this user, else a new one (issue 20)
    const pending = await pinSecurityQuestion(db, found.id);
    if (!pending) {
      await auditFailedSignIn(db, found.id, "security_questions_missing", props.ip);
      throw new UserError("SECURITY_QUESTIONS_REQUIRED", SECURITY_QUESTIONS_REQUIRED_MESSAGE);
    }
    await auditPending(db, found.id, "security_answer", props.ip);
    return {
      kind: "challenge",
      user: found,
      question: { index: pending.index, text: pending.text },
      until: pending.until,
    };
  }
  return { kind: "granted", user: await recordLogin({ db, user: found, ip: props.ip }) };
}

/**
 * Stamps a granted sign-in: lastLoginAt and an audit row, in one statement.
 * @throws the database driver's error; Error when the user is gone.
 */
export async function recordLogin(props: { db: Db; user: User; ip?: string | null }): Promise<User> {
  const request = currentRequest();
  const [user] = await props.db.queryRows<User>(RECORD_LOGIN, [
    props.user.id,
    props.ip ?? request?.ip ?? null,
    request?.requestId ?? null,
  ]);
  if (!user) throw new Error(`user ${props.user.id} vanished while signing in`);
  return user;
}
