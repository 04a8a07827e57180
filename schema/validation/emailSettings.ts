import { z } from "zod";
import { text } from "./primitives";

// The email settings form and mutation (issue 12, /admin/email-settings, `manageEmails`), shared by
// the web form and the server. The SMTP password is write-only: empty keeps the stored one.

export const SMTP_SECURITIES = ["none", "starttls", "tls"] as const;
export type SmtpSecurityName = (typeof SMTP_SECURITIES)[number];

/** The usual port of each security (shown as the port's placeholder, filled in when it is empty). */
export const DEFAULT_SMTP_PORTS: Record<SmtpSecurityName, number> = { none: 25, starttls: 587, tls: 465 };

/** How each security is named in the form. */
export const SMTP_SECURITY_LABELS: Record<SmtpSecurityName, string> = {
  none: "None",
  starttls: "STARTTLS",
  tls: "TLS",
};

export const HOST_MAX = 253;
export const SMTP_USER_MAX = 254;
export const SMTP_PASSWORD_MAX = 1024;
export const FROM_NAME_MAX = 100;
export const ADDRESS_MAX = 254;

export const EMAIL_SETTINGS_MESSAGES = {
  hostInvalid: "Please enter a valid host name or IP address",
  hostTooLong: `Host must be at most ${HOST_MAX} characters`,
  hostRequired: "Host is required when a user name is set",
  portInvalid: "Port must be a whole number from 1 to 65535",
  security: "Security must be None, STARTTLS or TLS",
  userTooLong: `User name must be at most ${SMTP_USER_MAX} characters`,
  passwordTooLong: `Password must be at most ${SMTP_PASSWORD_MAX} characters`,
  passwordNeedsUser: "Enter the user name that goes with the password",
  passwordRequired: "Password is required when a user name is set",
  // "Test connection" (issue 20): the stored password goes only where it was saved for
  storedPasswordOtherServer:
    "Enter the password to test this server: the stored password is used only with the saved host, port and user name",
  storedPasswordUnencrypted:
    "Enter the password to test without encryption: the stored password is sent only as securely as it was saved for",
  privateHost: "The SMTP server may not be at a loopback or private address",
  fromNameRequired: "From name is required",
  fromNameTooLong: `From name must be at most ${FROM_NAME_MAX} characters`,
  lineBreak: "Line breaks are not allowed here",
  fromAddressRequired: "From address is required",
  fromAddressInvalid: "Please enter a valid from address",
  replyToInvalid: "Please enter a valid reply-to address",
  teamAddressRequired: "Team address is required",
  teamAddressInvalid: "Please enter a valid team address",
} as const;

const M = EMAIL_SETTINGS_MESSAGES;

// a DNS name of letters, digits and hyphens (each label 1 to 63), or an IPv4 address
const HOST_NAME =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
// an IPv6 address (hex groups and colons, an optional dotted IPv4 tail), without brackets
const IPV6 = /^(?=.*:)[0-9A-Fa-f:.]{2,45}$/;

/** Whether `host` is a host name, an IPv4 or an IPv6 address. */
export function isValidHost(host: string): boolean {
  return HOST_NAME.test(host) || (IPV6.test(host) && z.ipv6().safeParse(host).success);
}

const optionalText = (max: number, tooLong: string) =>
  text()
    .trim()
    .max(max, tooLong)
    .nullish()
    .transform((v) => (v ? v : undefined));

const address = (required: string, invalid: string) =>
  text({ error: required }).trim().min(1, required).max(ADDRESS_MAX, invalid).pipe(z.email(invalid));

const NO_LINE_BREAK = /^[^\r\n]*$/;

/** A user name needs a host; a password needs a user name. */
function checkCredentials(
  s: { smtpHost?: string; smtpUser?: string; smtpPassword?: string },
  ctx: z.RefinementCtx,
): void {
  if (s.smtpUser && !s.smtpHost)
    ctx.addIssue({ code: "custom", path: ["smtpHost"], message: M.hostRequired });
  if (s.smtpPassword && !s.smtpUser) {
    ctx.addIssue({ code: "custom", path: ["smtpUser"], message: M.passwordNeedsUser });
  }
}

/** The SMTP server's part of the settings: what "Test connection" needs. */
export const smtpConnectionSchema = z
  .object({
    smtpHost: optionalText(HOST_MAX, M.hostTooLong).refine((v) => v === undefined || isValidHost(v), {
      message: M.hostInvalid,
    }),
    /** empty: the usual port of the security */
    smtpPort: z
      .number({ error: M.portInvalid })
      .int(M.portInvalid)
      .min(1, M.portInvalid)
      .max(65535, M.portInvalid)
      .nullish()
      .transform((v) => v ?? undefined),
    smtpSecurity: z.enum(SMTP_SECURITIES, { error: M.security }).default("starttls"),
    smtpUser: optionalText(SMTP_USER_MAX, M.userTooLong).refine(
      (v) => v === undefined || NO_LINE_BREAK.test(v),
      {
        message: M.lineBreak,
      },
    ),
    /** write-only: empty keeps the stored password (clearing the user name clears it) */
    smtpPassword: text()
      .max(SMTP_PASSWORD_MAX, M.passwordTooLong)
      .nullish()
      .transform((v) => (v ? v : undefined)),
  })
  .superRefine(checkCredentials);

/** The whole settings form: the SMTP server, the sender, the Reply-To and the team's address. */
export const emailSettingsSchema = z
  .object({
    ...smtpConnectionSchema.shape,
    fromName: text({ error: M.fromNameRequired })
      .trim()
      .min(1, M.fromNameRequired)
      .max(FROM_NAME_MAX, M.fromNameTooLong)
      .regex(NO_LINE_BREAK, M.lineBreak),
    fromAddress: address(M.fromAddressRequired, M.fromAddressInvalid),
    /** empty: replies go to the from address */
    replyTo: text()
      .trim()
      .nullish()
      .transform((v) => (v ? v : undefined))
      .pipe(z.email(M.replyToInvalid).max(ADDRESS_MAX, M.replyToInvalid).optional()),
    teamAddress: address(M.teamAddressRequired, M.teamAddressInvalid),
    /** off: messages are kept, marked captured, and not sent */
    enabled: z.boolean().default(true),
  })
  .superRefine(checkCredentials);

export type SmtpConnectionInput = z.input<typeof smtpConnectionSchema>;
export type SmtpConnection = z.output<typeof smtpConnectionSchema>;
export type EmailSettingsInput = z.input<typeof emailSettingsSchema>;
export type EmailSettings = z.output<typeof emailSettingsSchema>;
