import { builder } from "@gateway/graphql/builder";
import { caller } from "@gateway/graphql/context";
import { dbQuery } from "@gateway/graphql/dbQuery";
import { keysetPage } from "@gateway/graphql/keysetPage";
import { runIdentity } from "@gateway/graphql/run";
import { withoutNulls } from "@gateway/input";
import { EMAIL_STATUSES } from "@schema/validation/emailTemplates";
import type { TemplateProblem, TemplateVariable } from "@services/email";
import {
  type EmailCounts,
  type EmailMessageDetail,
  type EmailMessagePage,
  type EmailMessageSummary,
  type EmailTemplateVersionView,
  type EmailTemplateView,
  emailCountsLast24h,
  getEmailMessage,
  getEmailTemplate,
  listEmailMessages,
  listEmailTemplates,
  listTemplateVersions,
  previewEmailTemplate,
  type ResendResult,
  resendEmailMessage,
  restoreTemplateVersion,
  revertEmailTemplate,
  sendTestEmail,
  type TemplatePreview,
  type TestSendResult,
  updateEmailTemplate,
} from "@services/email";
import { AppError } from "@services/shared/errors";

// Email templates and the delivery log (issue 12, manageEmails): the templates with their variables,
// a preview with sample values, saves refused with the line and reason of each problem, revert,
// versions and restore, test sends through the ordinary queue, and the log of every message.

const TemplateVariableRef = builder.objectRef<TemplateVariable>("EmailTemplateVariable").implement({
  description: "A variable a template is offered, with its meaning and the sample value previews use.",
  fields: (t) => ({
    name: t.exposeString("name"),
    description: t.exposeString("description"),
    sample: t.exposeString("sample"),
  }),
});

const EmailTemplateRef = builder.objectRef<EmailTemplateView>("EmailTemplate").implement({
  description:
    "An email the portal sends: its subject, HTML and text content (sent inside the branded layout), with the variables it is offered.",
  fields: (t) => ({
    key: t.exposeString("key"),
    name: t.exposeString("name"),
    subject: t.exposeString("subject"),
    html: t.exposeString("html", { description: "the content; the layout adds the logo, title and footer" }),
    text: t.exposeString("text", { description: "empty: the text part is made from the HTML" }),
    variables: t.field({ type: [TemplateVariableRef], resolve: (tpl) => [...tpl.variables] }),
    isDefault: t.exposeBoolean("isDefault", { description: "whether the parts are the default wording" }),
    updatedAt: t.field({ type: "DateTime", nullable: true, resolve: (tpl) => tpl.updatedAt }),
    updatedBy: t.exposeString("updatedBy", { nullable: true }),
  }),
});

const EmailTemplateChangeEnum = builder.enumType("EmailTemplateChange", {
  values: ["original", "edit", "revert", "restore"] as const,
});

const EmailTemplateVersionRef = builder
  .objectRef<EmailTemplateVersionView>("EmailTemplateVersion")
  .implement({
    description: "One saved state of a template.",
    fields: (t) => ({
      id: t.exposeInt("id"),
      templateKey: t.exposeString("templateKey"),
      version: t.exposeInt("version"),
      change: t.field({ type: EmailTemplateChangeEnum, resolve: (v) => v.change }),
      subject: t.exposeString("subject"),
      html: t.exposeString("html"),
      text: t.exposeString("text"),
      createdAt: t.field({ type: "DateTime", resolve: (v) => v.createdAt }),
      createdBy: t.exposeString("createdBy", { nullable: true }),
    }),
  });

const TemplatePartEnum = builder.enumType("EmailTemplatePart", {
  values: ["subject", "html", "text"] as const,
});

const TemplateProblemRef = builder.objectRef<TemplateProblem>("EmailTemplateProblem").implement({
  description: "Why a template cannot be saved, and where.",
  fields: (t) => ({
    part: t.field({ type: TemplatePartEnum, resolve: (p) => p.part }),
    line: t.exposeInt("line"),
    column: t.exposeInt("column"),
    reason: t.exposeString("reason"),
    message: t.exposeString("message", { description: 'e.g. HTML body, line 3: Unknown variable "foo"' }),
  }),
});

const RenderedEmailRef = builder
  .objectRef<{ subject: string; html: string; text: string }>("RenderedEmail")
  .implement({
    description: "A whole email: the template filled with values, inside the branded layout.",
    fields: (t) => ({
      subject: t.exposeString("subject"),
      html: t.exposeString("html"),
      text: t.exposeString("text"),
    }),
  });

const TemplatePreviewRef = builder.objectRef<TemplatePreview>("EmailTemplatePreview").implement({
  description: "A template rendered with sample values, or the problems that stop it.",
  fields: (t) => ({
    rendered: t.field({ type: RenderedEmailRef, nullable: true, resolve: (p) => p.rendered }),
    problems: t.field({ type: [TemplateProblemRef], resolve: (p) => p.problems }),
  }),
});

const TestSendResultRef = builder.objectRef<TestSendResult>("EmailTestSend").implement({
  description: "A test message queued through the ordinary queue (see it in the delivery log).",
  fields: (t) => ({
    messageId: t.exposeInt("messageId"),
    to: t.exposeString("to"),
  }),
});

const EmailStatusEnum = builder.enumType("EmailMessageStatus", { values: EMAIL_STATUSES });

const EmailMessageRef = builder.objectRef<EmailMessageSummary>("EmailMessage").implement({
  description: "A message the portal sent or tried to send.",
  fields: (t) => ({
    id: t.exposeInt("id"),
    toAddress: t.exposeString("toAddress"),
    templateKey: t.exposeString("templateKey", { nullable: true }),
    templateName: t.exposeString("templateName", { nullable: true }),
    subject: t.exposeString("subject"),
    status: t.field({ type: EmailStatusEnum, resolve: (m) => m.status }),
    attempts: t.exposeInt("attempts"),
    lastError: t.exposeString("lastError", { nullable: true }),
    createdAt: t.field({ type: "DateTime", resolve: (m) => m.createdAt }),
    updatedAt: t.field({ type: "DateTime", resolve: (m) => m.updatedAt }),
    sentAt: t.field({ type: "DateTime", nullable: true, resolve: (m) => m.sentAt }),
    nextAttemptAt: t.field({ type: "DateTime", nullable: true, resolve: (m) => m.nextAttemptAt }),
  }),
});

const AttachmentRef = builder
  .objectRef<EmailMessageDetail["attachments"][number]>("EmailMessageAttachment")
  .implement({
    description: "A file sent with a message (its content is not returned).",
    fields: (t) => ({
      filename: t.exposeString("filename"),
      contentType: t.exposeString("contentType"),
      size: t.exposeInt("size"),
    }),
  });

const EmailMessageDetailRef = builder.objectRef<EmailMessageDetail>("EmailMessageDetail").implement({
  description: "A message as sent: its bodies (one-time links' tokens redacted) and attachments.",
  fields: (t) => ({
    message: t.field({ type: EmailMessageRef, resolve: (m) => m }),
    html: t.exposeString("html"),
    text: t.exposeString("text"),
    smtpMessageId: t.exposeString("messageId", { nullable: true }),
    attachments: t.field({ type: [AttachmentRef], resolve: (m) => m.attachments }),
    oneTimeLink: t.exposeBoolean("oneTimeLink", {
      description:
        "Whether it carried a one-time link (verification, reset, invitation): such a message is not resent once failed.",
    }),
  }),
});

const EmailMessagePageRef = keysetPage<EmailMessageSummary, EmailMessagePage>("EmailMessagePage", {
  node: EmailMessageRef,
  description: "One page of the delivery log, newest first (keyset pages: pass endCursor as `after`).",
});

const EmailCountsRef = builder.objectRef<EmailCounts>("EmailCounts").implement({
  description: "Messages created in the last 24 hours, by status.",
  fields: (t) => ({
    queued: t.exposeInt("queued"),
    sent: t.exposeInt("sent"),
    failed: t.exposeInt("failed"),
    captured: t.exposeInt("captured"),
  }),
});

const ResendResultRef = builder.objectRef<ResendResult>("EmailResend").implement({
  description: "What a resend did: resent false when the message was not failed (nothing changed).",
  fields: (t) => ({
    resent: t.exposeBoolean("resent"),
    message: t.field({ type: EmailMessageRef, resolve: (r) => r.message }),
  }),
});

const TemplatePartsInput = builder.inputType("EmailTemplatePartsInput", {
  description: "A template's subject, HTML and text.",
  fields: (t) => ({
    subject: t.string({ required: true }),
    html: t.string({ required: true }),
    text: t.string({ required: true }),
  }),
});

const TemplateInput = builder.inputType("EmailTemplateInput", {
  description: "A template's key and its parts (a save or a preview).",
  fields: (t) => ({
    key: t.string({ required: true }),
    subject: t.string({ required: true }),
    html: t.string({ required: true }),
    text: t.string({ required: true }),
  }),
});

const TestSendInput = builder.inputType("EmailTestSendInput", {
  description: "A test send: the template, the recipient (the admin's own address when empty), a draft.",
  fields: (t) => ({
    key: t.string({ required: true }),
    to: t.string(),
    draft: t.field({
      type: TemplatePartsInput,
      description: "the unsaved parts; the stored template when empty",
    }),
  }),
});

const EmailLogFilterInput = builder.inputType("EmailLogFilter", {
  description: "Which messages of the delivery log (every field optional, combined with AND).",
  fields: (t) => ({
    status: t.field({ type: EmailStatusEnum }),
    templateKey: t.string(),
    recipient: t.string({ description: "part of the recipient's address, any case" }),
    from: t.field({ type: "DateTime", description: "created at or after" }),
    to: t.field({ type: "DateTime", description: "created before" }),
  }),
});

dbQuery("emailTemplates", {
  type: [EmailTemplateRef],
  description: "Every email the portal sends, with its current wording and variables (manageEmails).",
  authScopes: { manageEmails: true },
  read: listEmailTemplates,
});

builder.queryField("emailTemplate", (t) =>
  t.field({
    type: EmailTemplateRef,
    description: "One email template (manageEmails).",
    authScopes: { manageEmails: true },
    args: { key: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => runIdentity(() => getEmailTemplate(ctx.db, args.key)),
  }),
);

builder.queryField("emailTemplateVersions", (t) =>
  t.field({
    type: [EmailTemplateVersionRef],
    description: "A template's saved versions, newest first (manageEmails).",
    authScopes: { manageEmails: true },
    args: { key: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => runIdentity(() => listTemplateVersions(ctx.db, args.key)),
  }),
);

builder.queryField("emailTemplatePreview", (t) =>
  t.field({
    type: TemplatePreviewRef,
    description: "Renders parts with the template's sample values, or lists their problems (manageEmails).",
    authScopes: { manageEmails: true },
    args: { input: t.arg({ type: TemplateInput, required: true }) },
    resolve: (_root, args, ctx) => runIdentity(() => previewEmailTemplate({ db: ctx.db, input: args.input })),
  }),
);

builder.mutationField("updateEmailTemplate", (t) =>
  t.field({
    type: EmailTemplateRef,
    description:
      "Saves a template; refused with the part, line and reason when it uses an unknown variable, a refused tag, or does not parse.",
    authScopes: { manageEmails: true },
    errors: { types: [AppError] },
    args: { input: t.arg({ type: TemplateInput, required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(async () => updateEmailTemplate({ db: ctx.db, actor: caller(ctx), input: args.input })),
  }),
);

builder.mutationField("revertEmailTemplate", (t) =>
  t.field({
    type: EmailTemplateRef,
    description: "Puts a template's default wording back (kept as a new version).",
    authScopes: { manageEmails: true },
    errors: { types: [AppError] },
    args: { key: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(async () => revertEmailTemplate({ db: ctx.db, actor: caller(ctx), key: args.key })),
  }),
);

builder.mutationField("restoreEmailTemplateVersion", (t) =>
  t.field({
    type: EmailTemplateRef,
    description: "Makes an older version of a template current again (kept as a new version).",
    authScopes: { manageEmails: true },
    errors: { types: [AppError] },
    args: { versionId: t.arg.int({ required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(async () =>
        restoreTemplateVersion({ db: ctx.db, actor: caller(ctx), versionId: args.versionId }),
      ),
  }),
);

builder.mutationField("sendTestEmail", (t) =>
  t.field({
    type: TestSendResultRef,
    description:
      "Queues a template (or a draft of it) with sample values to an address, the admin's own when empty.",
    authScopes: { manageEmails: true },
    errors: { types: [AppError] },
    args: { input: t.arg({ type: TestSendInput, required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(async () =>
        sendTestEmail({
          db: ctx.db,
          actor: caller(ctx),
          input: { ...withoutNulls(args.input), ...(args.input.draft ? { draft: args.input.draft } : {}) },
        }),
      ),
  }),
);

builder.queryField("emailMessages", (t) =>
  t.field({
    type: EmailMessagePageRef,
    description:
      "The delivery log, newest first, filtered, in keyset pages of `first` (1 to 200, default 50) (manageEmails).",
    authScopes: { manageEmails: true },
    args: {
      filter: t.arg({ type: EmailLogFilterInput }),
      first: t.arg.int(),
      after: t.arg.string({ description: "endCursor of the previous page" }),
    },
    resolve: (_root, args, ctx) =>
      runIdentity(() =>
        listEmailMessages({
          db: ctx.db,
          filter: withoutNulls(args.filter),
          first: args.first ?? undefined,
          after: args.after ?? undefined,
        }),
      ),
  }),
);

builder.queryField("emailMessage", (t) =>
  t.field({
    type: EmailMessageDetailRef,
    description: "One message as sent (manageEmails).",
    authScopes: { manageEmails: true },
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, args, ctx) => runIdentity(() => getEmailMessage({ db: ctx.db, id: args.id })),
  }),
);

dbQuery("emailCounts", {
  type: EmailCountsRef,
  description: "Messages created in the last 24 hours, by status (manageEmails).",
  authScopes: { manageEmails: true },
  read: (db) => emailCountsLast24h({ db }),
});

builder.mutationField("resendEmailMessage", (t) =>
  t.field({
    type: ResendResultRef,
    description:
      "Queues a failed message again; a message that is not failed is left as it is, and one that carried a one-time link is refused (CONFLICT).",
    authScopes: { manageEmails: true },
    errors: { types: [AppError] },
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(async () => resendEmailMessage({ db: ctx.db, actor: caller(ctx), id: args.id })),
  }),
);
