import {
  DEFAULT_SMTP_PORTS,
  EMAIL_SETTINGS_MESSAGES,
  emailSettingsSchema,
  type SmtpConnection,
  type SmtpSecurityName,
  smtpConnectionSchema,
} from "@schema/validation/emailSettings";
import {
  PrivateAddressError,
  privateAddressesAllowed,
  resolveAllowedAddress,
} from "@services/shared/addressSafety";
import { audit } from "@services/shared/audit";
import { config } from "@services/shared/config";
import type { Db } from "@services/shared/db";
import { AppError } from "@services/shared/errors";
import type { EmailSettings as EmailSettingsRow } from "@services/shared/generated/prisma/client";
import { SealError, sealSetting, unsealSetting } from "@services/shared/sealed";
import { withTimeout } from "@services/shared/timeout";
import { parse, type SettingsUpdateProps } from "@services/shared/validation";
import {
  type SmtpServer,
  type SmtpTarget,
  type SmtpVerification,
  unreachableSmtp,
  verifySmtp,
} from "./mailTransport";
import type { StoredSmtpServer } from "./sendDueEmails";

// The email settings (issue 12, /admin/email-settings, manageEmails, checked by the caller): the SMTP
// server, the sender, the Reply-To and the team's address, in the one row of email_settings. The
// SMTP password is sealed (sealSetting) and never leaves this module except to sign in; the sender
// reads the row at each claim (sendDueEmails.claimDueEmails), so a change applies to the next
// message without a restart. Values set in the environment (SMTP_URL, MAIL_FROM, TEAM_EMAIL) win
// over the row and are shown locked.

/** Who changes the settings. */
export interface EmailSettingsActor {
  id: number;
  /** shown as "updated by" */
  name: string;
}

/** Fields of the settings that a variable of the environment sets instead. */
export type LockedField =
  | "smtpHost"
  | "smtpPort"
  | "smtpSecurity"
  | "smtpUser"
  | "smtpPassword"
  | "fromName"
  | "fromAddress"
  | "teamAddress";

/** A variable of the environment that overrides some of the settings. */
export interface EnvironmentLock {
  variable: "SMTP_URL" | "MAIL_FROM" | "TEAM_EMAIL";
  fields: LockedField[];
  /** what it sets, without a password */
  value: string;
  reason: string;
}

/** Where messages go now. */
export type SendingMode = "environment" | "settings" | "captured" | "disabled";

/**
 * The settings as stored and as the admin page edits them: never the password, only whether one is
 * stored. `locks` name the fields the environment sets instead (with its values); `mode` and
 * `summary` say where messages go now, the environment included.
 */
export interface EmailSettingsView {
  smtpHost: string | null;
  smtpPort: number | null;
  smtpSecurity: SmtpSecurityName;
  smtpUser: string | null;
  smtpPasswordSet: boolean;
  fromName: string;
  fromAddress: string;
  replyTo: string | null;
  teamAddress: string;
  enabled: boolean;
  locks: EnvironmentLock[];
  mode: SendingMode;
  /** one sentence: where messages go now */
  summary: string;
  updatedAt: Date;
  updatedBy: string | null;
}

const SMTP_FIELDS: LockedField[] = ["smtpHost", "smtpPort", "smtpSecurity", "smtpUser", "smtpPassword"];

/** SMTP_URL without its password and query (which may carry credentials). */
function shownSmtpUrl(url: string): string {
  try {
    const u = new URL(url);
    const user = u.username ? `${decodeURIComponent(u.username)}@` : "";
    return `${u.protocol}//${user}${u.host}`;
  } catch {
    return "(set)";
  }
}

/** The variables of the environment that override the settings, as the process sees them. */
export function environmentLocks(): EnvironmentLock[] {
  const cfg = config();
  const locks: EnvironmentLock[] = [];
  const because = (variable: string) =>
    `Set by ${variable} in the environment: change it there and restart the portal to change it`;
  if (cfg.SMTP_URL) {
    locks.push({
      variable: "SMTP_URL",
      fields: SMTP_FIELDS,
      value: shownSmtpUrl(cfg.SMTP_URL),
      reason: because("SMTP_URL"),
    });
  }
  if (cfg.MAIL_FROM) {
    locks.push({
      variable: "MAIL_FROM",
      fields: ["fromName", "fromAddress"],
      value: cfg.MAIL_FROM,
      reason: because("MAIL_FROM"),
    });
  }
  if (cfg.TEAM_EMAIL) {
    locks.push({
      variable: "TEAM_EMAIL",
      fields: ["teamAddress"],
      value: cfg.TEAM_EMAIL,
      reason: because("TEAM_EMAIL"),
    });
  }
  return locks;
}

/** The host and port of the environment's SMTP_URL. */
function environmentSmtp(url: string): { host: string; port: number } {
  try {
    const u = new URL(url);
    return { host: u.hostname, port: u.port ? Number(u.port) : u.protocol === "smtps:" ? 465 : 587 };
  } catch {
    return { host: "(invalid SMTP_URL)", port: 0 };
  }
}

function present(row: EmailSettingsRow): EmailSettingsView {
  const cfg = config();
  const locks = environmentLocks();
  const view: EmailSettingsView = {
    ...auditView(row),
    locks,
    mode: "captured",
    summary: "",
    updatedAt: row.updatedAt,
    updatedBy: row.updatedBy,
  };
  const port = row.smtpPort ?? DEFAULT_SMTP_PORTS[row.smtpSecurity];
  if (!row.enabled) {
    view.mode = "disabled";
    view.summary = "Sending is switched off: messages are kept in the portal, marked captured.";
  } else if (cfg.SMTP_URL) {
    const env = environmentSmtp(cfg.SMTP_URL);
    view.mode = "environment";
    view.summary = `Messages are sent through ${env.host}:${env.port} (SMTP_URL).`;
  } else if (row.smtpHost) {
    view.mode = "settings";
    view.summary = `Messages are sent through ${row.smtpHost}:${port}.`;
  } else {
    view.mode = "captured";
    view.summary = "No SMTP server is set: messages are kept in the portal, marked captured.";
  }
  return view;
}

/** The settings row, created with the defaults when the seed has not made it. */
async function settingsRow(db: Db): Promise<EmailSettingsRow> {
  return (
    (await db.prisma.emailSettings.findUnique({ where: { id: 1 } })) ??
    db.prisma.emailSettings.upsert({ where: { id: 1 }, create: { id: 1 }, update: {} })
  );
}

/** The settings (never the password). @throws Prisma errors. */
export async function getEmailSettings(db: Db): Promise<EmailSettingsView> {
  return present(await settingsRow(db));
}

function passwordRequired(): AppError {
  return new AppError("VALIDATION_FAILED", EMAIL_SETTINGS_MESSAGES.passwordRequired, {
    details: { errors: { smtpPassword: [EMAIL_SETTINGS_MESSAGES.passwordRequired] } },
  });
}

/** The row's state for the audit log: everything but the password, and whether one is stored. */
function auditView(row: EmailSettingsRow) {
  return {
    smtpHost: row.smtpHost,
    smtpPort: row.smtpPort,
    smtpSecurity: row.smtpSecurity,
    smtpUser: row.smtpUser,
    smtpPasswordSet: row.smtpPasswordSealed !== null,
    fromName: row.fromName,
    fromAddress: row.fromAddress,
    replyTo: row.replyTo,
    teamAddress: row.teamAddress,
    enabled: row.enabled,
  };
}

/**
 * Changes the email settings; the senders use them from their next claim (no restart). Fields an
 * environment variable sets (see {@link environmentLocks}) keep their stored values. An empty
 * password keeps the stored one, a new one is sealed, and clearing the user name clears it. The
 * change is audited (email.settings_updated) with its before and after, without the password.
 * @throws AppError VALIDATION_FAILED with the schema's message, or 'Password is required when a user
 * name is set' when a user is set and no password is given or stored.
 */
export async function updateEmailSettings(
  props: SettingsUpdateProps<EmailSettingsActor>,
): Promise<EmailSettingsView> {
  const input = parse(emailSettingsSchema, props.input);
  const locked = new Set(environmentLocks().flatMap((lock) => lock.fields));
  const smtpLocked = locked.has("smtpHost");
  const sealed = !smtpLocked && input.smtpPassword ? sealSetting(input.smtpPassword) : undefined;
  await settingsRow(props.db);
  return props.db.prisma.$transaction(async (tx) => {
    const [before] = await tx.$queryRaw<EmailSettingsRow[]>`
      SELECT * FROM email_settings WHERE id = 1 FOR UPDATE`;
    if (!before) throw new AppError("NOT_FOUND", "The email settings are missing");
    const smtp = smtpLocked
      ? {}
      : {
          smtpHost: input.smtpHost ?? null,
          smtpPort: input.smtpHost ? (input.smtpPort ?? null) : null,
          smtpSecurity: input.smtpSecurity,
          smtpUser: input.smtpUser ?? null,
          // no user, no password; a new one replaces the stored one; empty keeps it
          ...(input.smtpUser ? (sealed ? { smtpPasswordSealed: sealed } : {}) : { smtpPasswordSealed: null }),
        };
    if (!smtpLocked && input.smtpUser && !sealed && !before.smtpPasswordSealed) throw passwordRequired();
    const after = await tx.emailSettings.update({
      where: { id: 1 },
      data: {
        ...smtp,
        ...(locked.has("fromName") ? {} : { fromName: input.fromName, fromAddress: input.fromAddress }),
        ...(locked.has("teamAddress") ? {} : { teamAddress: input.teamAddress }),
        replyTo: input.replyTo ?? null,
        enabled: input.enabled,
        updatedBy: props.actor.name,
      },
    });
    await audit(tx, {
      action: "email.settings_updated",
      actorId: props.actor.id,
      targetType: "email_settings",
      targetId: 1,
      ip: props.ip,
      before: auditView(before),
      after: auditView(after),
      metadata: {
        passwordChanged: before.smtpPasswordSealed !== after.smtpPasswordSealed,
        lockedByEnvironment: [...locked],
      },
    });
    return present(after);
  });
}

/**
 * The SMTP server a sender connects to for the stored settings: the password opened, the port
 * defaulted from the security; an Error (never thrown) when the stored password cannot be opened
 * (SESSION_SECRET changed), so that each message's attempt fails with that reason.
 */
export function settingsSmtpServer(stored: StoredSmtpServer): SmtpServer | Error {
  let password: string | undefined;
  if (stored.passwordSealed) {
    try {
      password = unsealSetting(stored.passwordSealed);
    } catch (err) {
      if (!(err instanceof SealError)) throw err;
      return new Error(
        "The stored SMTP password cannot be opened (was SESSION_SECRET changed?): enter it again in the email settings",
      );
    }
  }
  return {
    host: stored.host,
    port: stored.port ?? DEFAULT_SMTP_PORTS[stored.security],
    security: stored.security,
    ...(stored.user ? { user: stored.user, password } : {}),
  };
}

/**
 * The SMTP server the senders use now: SMTP_URL's when the environment sets it, else the stored
 * settings' (null when neither names one: mail is captured; an Error when the stored password
 * cannot be opened). For the testing tools' health probe.
 * @throws Prisma errors.
 */
export async function currentSmtpTarget(db: Db): Promise<SmtpTarget | Error | null> {
  const url = config().SMTP_URL;
  if (url) return { url };
  const row = await settingsRow(db);
  if (!row.smtpHost) return null;
  const server = settingsSmtpServer({
    host: row.smtpHost,
    port: row.smtpPort,
    security: row.smtpSecurity,
    user: row.smtpUser,
    passwordSealed: row.smtpPasswordSealed,
  });
  return server instanceof Error ? server : { server };
}

/** Whether "Test connection" may reach loopback and private addresses (CONNECTION_TEST_ALLOW_PRIVATE). */
function testPrivateAllowed(): boolean {
  return privateAddressesAllowed(config().CONNECTION_TEST_ALLOW_PRIVATE);
}

function refusedForTest(field: "smtpHost" | "smtpPassword", message: string): AppError {
  return new AppError("VALIDATION_FAILED", message, { details: { errors: { [field]: [message] } } });
}

function hostNotFound(): Error {
  return Object.assign(new Error("the lookup did not answer"), { code: "EAI_AGAIN" });
}

/**
 * The stored password, when the form's server may have it: the saved host (case aside), port and
 * user name, and a security no weaker than saved (none only when saved as none).
 * @throws AppError VALIDATION_FAILED when no password is stored, or when the form names another
 * server or asks for plain text where the saved server is encrypted.
 */
function storedPasswordFor(row: EmailSettingsRow, input: SmtpConnection): string {
  if (!row.smtpPasswordSealed) throw passwordRequired();
  const savedPort = row.smtpPort ?? DEFAULT_SMTP_PORTS[row.smtpSecurity];
  const formPort = input.smtpPort ?? DEFAULT_SMTP_PORTS[input.smtpSecurity];
  const sameServer =
    row.smtpHost !== null &&
    row.smtpHost.toLowerCase() === input.smtpHost?.toLowerCase() &&
    savedPort === formPort &&
    row.smtpUser === input.smtpUser;
  if (!sameServer) throw refusedForTest("smtpPassword", EMAIL_SETTINGS_MESSAGES.storedPasswordOtherServer);
  if (input.smtpSecurity === "none" && row.smtpSecurity !== "none") {
    throw refusedForTest("smtpPassword", EMAIL_SETTINGS_MESSAGES.storedPasswordUnencrypted);
  }
  return row.smtpPasswordSealed;
}

/**
 * "Test connection": connects to the SMTP server the form names (SMTP_URL's when the environment
 * sets it) and signs in as the sender would, answering in fixed sentences (a 535 for a wrong
 * password; never the server's text). An empty password uses the stored one, but only for the
 * saved host, port and user, at the saved security or better. The form's host must resolve to a
 * public address unless CONNECTION_TEST_ALLOW_PRIVATE (development) allows loopback and private
 * ones; the connection goes to the address judged. Each step waits at most `timeoutMs` (default
 * 10 s). Failures to connect are answered, not thrown.
 * @throws AppError VALIDATION_FAILED with the schema's message, when the form names no host, when
 * the stored password may not be used (see above), or 'The SMTP server may not be at a loopback or
 * private address'.
 */
export async function testEmailConnection(props: {
  db: Db;
  input: unknown;
  timeoutMs?: number;
}): Promise<SmtpVerification> {
  const smtpUrl = config().SMTP_URL;
  // the environment's server is the operator's: no address rule
  if (smtpUrl) return verifySmtp({ url: smtpUrl }, props.timeoutMs);
  const input: SmtpConnection = parse(smtpConnectionSchema, props.input);
  if (!input.smtpHost) {
    throw new AppError("VALIDATION_FAILED", "Enter the SMTP host to test", {
      details: { errors: { smtpHost: ["Enter the SMTP host to test"] } },
    });
  }
  const passwordSealed =
    input.smtpUser && !input.smtpPassword ? storedPasswordFor(await settingsRow(props.db), input) : null;
  const server = settingsSmtpServer({
    host: input.smtpHost,
    port: input.smtpPort ?? null,
    security: input.smtpSecurity,
    user: input.smtpUser ?? null,
    passwordSealed,
  });
  if (server instanceof Error) {
    return { ok: false, message: server.message, responseCode: null, latencyMs: 0 };
  }
  const target: SmtpTarget = {
    server: input.smtpPassword ? { ...server, password: input.smtpPassword } : server,
  };
  let address: string;
  try {
    const lookup = resolveAllowedAddress(input.smtpHost, testPrivateAllowed());
    // a resolver that never answers is "host not found" within the test's step time
    address = (await withTimeout(lookup, props.timeoutMs ?? 10_000, () => hostNotFound())).address;
  } catch (err) {
    if (err instanceof PrivateAddressError) {
      throw refusedForTest("smtpHost", EMAIL_SETTINGS_MESSAGES.privateHost);
    }
    return unreachableSmtp(target, err, props.timeoutMs);
  }
  return verifySmtp({ server: { ...target.server, address } }, props.timeoutMs);
}
