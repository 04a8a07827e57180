import { z } from "zod";
import { id, instant, text } from "./primitives";
import { emailSchema } from "./user";

// Email templates and the delivery log (issue 12): one definition for the GraphQL arguments and the
// admin's forms. The template's own rules (known variables, a parse that succeeds) are checked by
// services/email/templateRules.ts, which needs the catalog of each template.

export const EMAIL_TEMPLATE_MESSAGES = {
  keyRequired: "Choose an email template",
  subjectRequired: "Subject is required",
  subjectTooLong: "Subject must be at most 200 characters",
  htmlRequired: "HTML body is required",
  htmlTooLong: "HTML body must be at most 100000 characters",
  textTooLong: "Text body must be at most 100000 characters",
} as const;

export const EMAIL_LOG_PAGE_DEFAULT = 50;
export const EMAIL_LOG_PAGE_MAX = 200;
export const EMAIL_STATUSES = ["queued", "sent", "failed", "captured"] as const;

/** A template's key: lowercase words joined by underscores (the catalog says which exist). */
export const templateKeySchema = text({ error: EMAIL_TEMPLATE_MESSAGES.keyRequired })
  .trim()
  .min(1, EMAIL_TEMPLATE_MESSAGES.keyRequired)
  .max(64, EMAIL_TEMPLATE_MESSAGES.keyRequired)
  .regex(/^[a-z][a-z0-9_]*$/, EMAIL_TEMPLATE_MESSAGES.keyRequired);

/**
 * The three editable parts of a template. The text body may be empty: the plain-text part is then
 * made from the HTML body (services/email/emailLayout.ts).
 */
export const templatePartsSchema = z.object({
  subject: text({ error: EMAIL_TEMPLATE_MESSAGES.subjectRequired })
    .refine((v) => v.trim().length > 0, EMAIL_TEMPLATE_MESSAGES.subjectRequired)
    .refine((v) => v.length <= 200, EMAIL_TEMPLATE_MESSAGES.subjectTooLong),
  html: text({ error: EMAIL_TEMPLATE_MESSAGES.htmlRequired })
    .refine((v) => v.trim().length > 0, EMAIL_TEMPLATE_MESSAGES.htmlRequired)
    .refine((v) => v.length <= 100_000, EMAIL_TEMPLATE_MESSAGES.htmlTooLong),
  text: text().refine((v) => v.length <= 100_000, EMAIL_TEMPLATE_MESSAGES.textTooLong),
});

export type TemplatePartsInput = z.infer<typeof templatePartsSchema>;

/** Saving a template: its key and its three parts. */
export const templateUpdateSchema = templatePartsSchema.extend({ key: templateKeySchema });

/** "Send me a test" and the testing page's send: a template, a recipient, and a draft if any. */
export const testSendSchema = z.object({
  key: templateKeySchema,
  /** the recipient; the admin's own address when left out */
  to: emailSchema.optional(),
  /** the unsaved parts being edited; the stored template when left out */
  draft: templatePartsSchema.optional(),
});

/** Which messages of the delivery log: every field optional, combined with AND. */
export const emailLogFilterSchema = z
  .object({
    status: z.enum(EMAIL_STATUSES, { error: "Status is queued, sent, failed or captured" }).optional(),
    templateKey: templateKeySchema.optional(),
    /** part of the recipient's address, any case */
    recipient: text().trim().max(254, "A recipient is at most 254 characters").optional(),
    /** created at or after */
    from: instant().optional(),
    /** created before */
    to: instant().optional(),
  })
  .refine((f) => !(f.from && f.to && f.from > f.to), {
    message: "The start of a range must not be after its end",
    path: ["to"],
  });

export type EmailLogFilter = z.infer<typeof emailLogFilterSchema>;

/** A page request of the delivery log. */
export const emailLogPageSchema = z.object({
  first: z
    .number({ error: `first is 1 to ${EMAIL_LOG_PAGE_MAX}` })
    .int(`first is 1 to ${EMAIL_LOG_PAGE_MAX}`)
    .min(1, `first is 1 to ${EMAIL_LOG_PAGE_MAX}`)
    .max(EMAIL_LOG_PAGE_MAX, `first is 1 to ${EMAIL_LOG_PAGE_MAX}`)
    .default(EMAIL_LOG_PAGE_DEFAULT),
  after: z.string().max(200, "Invalid cursor").optional(),
});

/** A message of the delivery log, by id. */
export const emailMessageIdSchema = id("A message is a whole number id");

/** A version of a template, by id. */
export const templateVersionIdSchema = id("A version is a whole number id");
