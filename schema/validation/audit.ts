import { z } from "zod";
import { id, instant, text } from "./primitives";

// The audit view's filter (issue 11): one definition for the GraphQL query, the CSV export's query
// parameters and the admin's form.

export const AUDIT_PAGE_DEFAULT = 50;
export const AUDIT_PAGE_MAX = 200;

const actionText = text()
  .trim()
  .max(100, "An action is at most 100 characters")
  .regex(/^[A-Za-z0-9._-]*$/, "An action holds letters, digits, dots, dashes and underscores");

/** Which audit entries: every field optional, combined with AND. */
export const auditFilterSchema = z
  .object({
    /** one action, exactly ("user.type_changed") */
    action: actionText.optional(),
    /** actions starting with this ("user." or "appointment.") */
    actionPrefix: actionText.optional(),
    /** the acting user */
    actorId: id("The actor is a user id").optional(),
    /** the user acted upon (entries whose target is this user) */
    targetUserId: id("The target is a user id").optional(),
    /** at or after */
    from: instant().optional(),
    /** before */
    to: instant().optional(),
    /** part of an action, any case */
    q: text().trim().max(100, "Search text must be at most 100 characters").optional(),
  })
  .refine((f) => !(f.from && f.to && f.from > f.to), {
    message: "The start of a range must not be after its end",
    path: ["to"],
  });

export type AuditFilter = z.infer<typeof auditFilterSchema>;

/** A page request: the filter, the page size and the cursor of the previous page's last entry. */
export const auditPageSchema = z.object({
  first: z
    .number({ error: `first is 1 to ${AUDIT_PAGE_MAX}` })
    .int(`first is 1 to ${AUDIT_PAGE_MAX}`)
    .min(1, `first is 1 to ${AUDIT_PAGE_MAX}`)
    .max(AUDIT_PAGE_MAX, `first is 1 to ${AUDIT_PAGE_MAX}`)
    .default(AUDIT_PAGE_DEFAULT),
  after: z.string().max(200, "Invalid cursor").optional(),
});
