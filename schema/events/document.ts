import { z } from "zod";
import { defineEvent, id, isoDate } from "./define";

const document = {
  documentId: id,
  /** the owner */
  userId: id,
  title: z.string(),
  fileName: z.string(),
  fileType: z.string(),
};

export const documentUploaded = defineEvent(
  "document.uploaded",
  1,
  z.object({
    ...document,
    fileSize: z.number().int().min(0).nullable(),
    uploadedByName: z.string().nullable(),
  }),
);

export const documentApproved = defineEvent(
  "document.approved",
  1,
  z.object({ ...document, approvedBy: z.string(), approvedAt: isoDate }),
);

export const documentRejected = defineEvent(
  "document.rejected",
  1,
  z.object({ ...document, rejectedBy: z.string(), rejectedAt: isoDate, reason: z.string().nullable() }),
);

export const documentEvents = [documentUploaded, documentApproved, documentRejected] as const;
