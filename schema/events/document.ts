import { z } from "zod";
import { defineEvent, id, isoDate } from "./define";

// Document events (issue 9). The email service turns them into the team's notice of an upload and
// the client's notice of each decision and of each report the team sends.

const document = {
  documentId: id,
  /** the owner (the client) */
  userId: id,
  title: z.string(),
  fileName: z.string(),
  fileType: z.string(),
  /** the document's version the event is about (1 at upload, +1 per resubmission) */
  version: z.number().int().positive(),
};

export const documentUploaded = defineEvent(
  "document.uploaded",
  1,
  z.object({
    ...document,
    /** bytes (may pass 2^31; at most 5 GiB) */
    fileSize: z.number().int().min(0),
    uploadedByName: z.string().nullable(),
    /** who uploaded it: the owner, or the administrator for a report */
    uploadedById: id,
    /** a report the team sent the client: approved at once, shown as "From the team" */
    fromTeam: z.boolean(),
  }),
);

export const documentResubmitted = defineEvent(
  "document.resubmitted",
  1,
  z.object({ ...document, fileSize: z.number().int().min(0), uploadedByName: z.string().nullable() }),
);

export const documentApproved = defineEvent(
  "document.approved",
  1,
  z.object({ ...document, approvedBy: z.string(), approvedAt: isoDate }),
);

export const documentRejected = defineEvent(
  "document.rejected",
  1,
  z.object({ ...document, rejectedBy: z.string(), rejectedAt: isoDate, reason: z.string() }),
);

export const documentDeleted = defineEvent(
  "document.deleted",
  1,
  z.object({ documentId: id, userId: id, title: z.string(), deletedBy: id }),
);

export const documentEvents = [
  documentUploaded,
  documentResubmitted,
  documentApproved,
  documentRejected,
  documentDeleted,
] as const;
