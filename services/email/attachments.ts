import { z } from "zod";

/** A file sent with an email, as email_messages.attachments stores it. */
export const emailAttachmentSchema = z.object({
  filename: z.string().min(1),
  /** full MIME type with parameters, e.g. `text/calendar; charset=utf-8; method=REQUEST` */
  contentType: z.string().min(1),
  /** the file itself: text, or base64 when `encoding` says so */
  content: z.string(),
  encoding: z.literal("base64").optional(),
});

export type EmailAttachment = z.infer<typeof emailAttachmentSchema>;

const attachmentsSchema = z.array(emailAttachmentSchema);

/**
 * The attachments of a stored message (email_messages.attachments, JSON).
 * @throws ZodError when the stored value is not a list of attachments.
 */
export function parseAttachments(value: unknown): EmailAttachment[] {
  return value === null || value === undefined ? [] : attachmentsSchema.parse(value);
}

/** The iTIP method (REQUEST, CANCEL, ...) of a text/calendar attachment; null for any other file. */
export function calendarMethodOf(attachment: EmailAttachment): string | null {
  const [type, ...params] = attachment.contentType.split(";").map((p) => p.trim());
  if (type?.toLowerCase() !== "text/calendar") return null;
  for (const param of params) {
    const [name, value] = param.split("=");
    if (name?.trim().toLowerCase() === "method" && value)
      return value.trim().replace(/^"|"$/g, "").toUpperCase();
  }
  return /^METHOD:(\w+)/m.exec(attachment.content)?.[1]?.toUpperCase() ?? "REQUEST";
}
