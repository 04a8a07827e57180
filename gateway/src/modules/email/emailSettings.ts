import type { Actor } from "@gateway/auth/actor";
import { builder } from "@gateway/graphql/builder";
import { caller } from "@gateway/graphql/context";
import { dbQuery } from "@gateway/graphql/dbQuery";
import { runIdentity } from "@gateway/graphql/run";
import { withoutNulls } from "@gateway/input";
import { SMTP_SECURITIES } from "@schema/validation/emailSettings";
import type { SmtpVerification } from "@services/email";
import {
  type EmailSettingsActor,
  type EmailSettingsView,
  type EnvironmentLock,
  getEmailSettings,
  testEmailConnection,
  updateEmailSettings,
} from "@services/email";
import { AppError } from "@services/shared/errors";

// Email settings (issue 12, manageEmails): the SMTP server, the sender, the Reply-To and the team's
// address, and "Test connection". The SMTP password is write-only: no type here has a field that
// could carry it.

const SmtpSecurityEnum = builder.enumType("SmtpSecurity", {
  description: "none: plain text; starttls: upgraded with STARTTLS (required); tls: TLS from the start",
  values: SMTP_SECURITIES,
});

const SendingModeEnum = builder.enumType("EmailSendingMode", {
  description:
    "environment: SMTP_URL; settings: the SMTP server of the settings; captured: no SMTP server, messages kept; disabled: sending switched off",
  values: ["environment", "settings", "captured", "disabled"] as const,
});

const EnvironmentLockRef = builder.objectRef<EnvironmentLock>("EmailSettingsLock").implement({
  description: "A variable of the environment that sets some of the email settings instead of the form.",
  fields: (t) => ({
    variable: t.exposeString("variable"),
    fields: t.exposeStringList("fields", { description: "the input fields it sets" }),
    value: t.exposeString("value", { description: "what it sets (never a password)" }),
    reason: t.exposeString("reason"),
  }),
});

const EmailSettingsRef = builder.objectRef<EmailSettingsView>("EmailSettings").implement({
  description: "How the portal sends email (the SMTP password is never returned, only whether one is set).",
  fields: (t) => ({
    smtpHost: t.exposeString("smtpHost", { nullable: true }),
    smtpPort: t.exposeInt("smtpPort", { nullable: true }),
    smtpSecurity: t.field({ type: SmtpSecurityEnum, resolve: (s) => s.smtpSecurity }),
    smtpUser: t.exposeString("smtpUser", { nullable: true }),
    smtpPasswordSet: t.exposeBoolean("smtpPasswordSet", { description: "whether a password is stored" }),
    fromName: t.exposeString("fromName"),
    fromAddress: t.exposeString("fromAddress"),
    replyTo: t.exposeString("replyTo", { nullable: true }),
    teamAddress: t.exposeString("teamAddress"),
    enabled: t.exposeBoolean("enabled"),
    locks: t.field({ type: [EnvironmentLockRef], resolve: (s) => s.locks }),
    mode: t.field({ type: SendingModeEnum, resolve: (s) => s.mode }),
    summary: t.exposeString("summary"),
    updatedAt: t.field({ type: "DateTime", resolve: (s) => s.updatedAt }),
    updatedBy: t.exposeString("updatedBy", { nullable: true }),
  }),
});

const SmtpTestResultRef = builder.objectRef<SmtpVerification>("SmtpTestResult").implement({
  description:
    "The outcome of an SMTP connection test, in the portal's own words: the server's reply code, never its text.",
  fields: (t) => ({
    ok: t.exposeBoolean("ok"),
    message: t.exposeString("message"),
    responseCode: t.exposeInt("responseCode", { nullable: true }),
    replies: t.stringList({
      description: "always empty: what the server says is not repeated",
      deprecationReason: "The server's own replies are no longer shown; read message and responseCode.",
      resolve: () => [],
    }),
    latencyMs: t.exposeInt("latencyMs"),
  }),
});

const EmailSettingsInput = builder.inputType("EmailSettingsInput", {
  description: "The email settings form; an empty smtpPassword keeps the stored one.",
  fields: (t) => ({
    smtpHost: t.string(),
    smtpPort: t.int(),
    smtpSecurity: t.field({ type: SmtpSecurityEnum }),
    smtpUser: t.string(),
    smtpPassword: t.string({ description: "write-only; empty keeps the stored one" }),
    fromName: t.string({ required: true }),
    fromAddress: t.string({ required: true }),
    replyTo: t.string(),
    teamAddress: t.string({ required: true }),
    enabled: t.boolean({ required: true }),
  }),
});

const SmtpConnectionInput = builder.inputType("SmtpConnectionInput", {
  description:
    "The SMTP server to test; an empty smtpPassword uses the stored one, for the saved host, port and user only.",
  fields: (t) => ({
    smtpHost: t.string(),
    smtpPort: t.int(),
    smtpSecurity: t.field({ type: SmtpSecurityEnum }),
    smtpUser: t.string(),
    smtpPassword: t.string({
      description: "write-only; empty uses the stored one (saved host, port and user only)",
    }),
  }),
});

/** The settings' "updated by": the caller's name, or their username when they have none. */
function updatedBy(actor: Actor): EmailSettingsActor {
  return { id: actor.id, name: actor.name || actor.username };
}

dbQuery("emailSettings", {
  type: EmailSettingsRef,
  description: "The email settings (manageEmails); the SMTP password is never returned.",
  authScopes: { manageEmails: true },
  read: getEmailSettings,
});

builder.mutationField("updateEmailSettings", (t) =>
  t.field({
    type: EmailSettingsRef,
    description: "Changes the email settings (manageEmails); the next message uses them, without a restart.",
    authScopes: { manageEmails: true },
    errors: { types: [AppError] },
    args: { input: t.arg({ type: EmailSettingsInput, required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(async () =>
        updateEmailSettings({
          db: ctx.db,
          actor: updatedBy(caller(ctx)),
          input: withoutNulls(args.input),
          ip: ctx.req.ip ?? null,
        }),
      ),
  }),
);

builder.mutationField("testEmailConnection", (t) =>
  t.field({
    type: SmtpTestResultRef,
    description:
      "Connects and signs in to the SMTP server (SMTP_URL's when set) and answers what came of it (manageEmails). The stored password is used only for the saved server; a host at a loopback or private address is refused outside development.",
    authScopes: { manageEmails: true },
    errors: { types: [AppError] },
    args: { input: t.arg({ type: SmtpConnectionInput, required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(() => testEmailConnection({ db: ctx.db, input: withoutNulls(args.input) })),
  }),
);
