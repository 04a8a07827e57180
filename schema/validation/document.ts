import { z } from "zod";
import { id, inInstantRange, text } from "./primitives";

// Validation of documents, uploads and the storage settings, shared by the web forms and the server
// (spec §5 "Document" and "Storage settings", DECISIONS.md "Documents"). The file checks run in the
// browser before an upload starts and again on the server when the tus upload is created, with the
// same messages; the server then checks the bytes themselves (services/document/sniff.ts).

/**
 * Every file type the portal knows how to verify by content, with the content type its bytes must
 * show. An allowed type must be one of these: the sniffer can tell a real one from an impostor.
 */
export const KNOWN_FILE_TYPES = {
  pdf: "application/pdf",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xls: "application/vnd.ms-excel",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  ppt: "application/vnd.ms-powerpoint",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  odt: "application/vnd.oasis.opendocument.text",
  ods: "application/vnd.oasis.opendocument.spreadsheet",
  odp: "application/vnd.oasis.opendocument.presentation",
  csv: "text/csv",
  txt: "text/plain",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  tif: "image/tiff",
  tiff: "image/tiff",
} as const;

export type KnownFileType = keyof typeof KNOWN_FILE_TYPES;
export const KNOWN_FILE_TYPE_NAMES = Object.keys(KNOWN_FILE_TYPES) as KnownFileType[];

/** Content types a preview may show inline (under a sandbox CSP): PDF and images. */
export const PREVIEWABLE_MIME_TYPES = [
  "application/pdf",
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
] as const;

/** DECISIONS.md "Documents": the defaults of storage_config. */
export const DEFAULT_MAX_FILE_SIZE = 10_000_000;
export const DEFAULT_ALLOWED_FILE_TYPES: KnownFileType[] = [
  "pdf",
  "doc",
  "docx",
  "xls",
  "xlsx",
  "csv",
  "txt",
  "png",
  "jpg",
  "jpeg",
];
/** spec §5 and §9: the smallest maximum an admin may set */
export const MIN_MAX_FILE_SIZE = 1_000_000;
/** the largest maximum an admin may set: 5 GiB */
export const MAX_MAX_FILE_SIZE = 5 * 1024 ** 3;

export const TITLE_MAX = 200;
export const DESCRIPTION_MAX = 2000;
export const FILE_NAME_MAX = 255;
export const REASON_MAX = 1000;

export const DOCUMENT_STATUSES = ["pending", "approved", "rejected"] as const;
export type DocumentStatusName = (typeof DOCUMENT_STATUSES)[number];

export const DOCUMENT_MESSAGES = {
  titleRequired: "Title is required",
  titleTooLong: `Title must be less than ${TITLE_MAX} characters`,
  fileNameRequired: "File name is required",
  fileNameTooLong: `File name must be less than ${FILE_NAME_MAX} characters`,
  fileTypeRequired: "File type is required",
  fileUrlRequired: "File URL is required",
  descriptionTooLong: `Description must be less than ${DESCRIPTION_MAX} characters`,
  reasonRequired: "Please give a reason for the rejection",
  reasonTooLong: `The reason must be less than ${REASON_MAX} characters`,
  emptyFile: "The file is empty",
  atLeastOneType: "At least one file type must be allowed",
  minMaxFileSize: "Maximum file size must be at least 1,000,000 bytes",
  maxMaxFileSize: "Maximum file size cannot be more than 5 GiB",
  storageType: "Storage type must be local or cloud",
  endpointRequired: "Endpoint is required for cloud storage",
  endpointUrl: "Please enter a valid URL",
  regionRequired: "Region is required for cloud storage",
  bucketRequired: "Bucket is required for cloud storage",
  accessKeyRequired: "Access key is required for cloud storage",
  secretRequired: "Secret key is required for cloud storage",
  // "Test connection" (issue 20)
  privateEndpoint: "The storage endpoint may not be at a loopback or private address",
} as const;

/** 'xyz is not a file type the portal can verify' (storage settings). */
export function unknownFileTypeMessage(type: string): string {
  return `.${type} is not a file type the portal can verify (known: ${KNOWN_FILE_TYPE_NAMES.join(", ")})`;
}

/** The message for a file whose extension is not allowed. */
export function typeNotAllowedMessage(extension: string | null, allowed: readonly string[]): string {
  const what = extension ? `.${extension} files are` : "Files without an extension are";
  return `${what} not allowed. Allowed types: ${allowed.join(", ")}`;
}

/** The message for a file larger than the maximum. */
export function fileTooLargeMessage(maxFileSize: number): string {
  return `The file is larger than the maximum of ${formatBytes(maxFileSize)}`;
}

/** Bytes for people: "10 MB", "1.5 GB", "900 KB" (decimal units, as the settings form uses). */
export function formatBytes(bytes: number): string {
  if (bytes >= 1e9) return `${trim(bytes / 1e9)} GB`;
  if (bytes >= 1e6) return `${trim(bytes / 1e6)} MB`;
  if (bytes >= 1e3) return `${trim(bytes / 1e3)} KB`;
  return `${bytes} bytes`;
}

function trim(n: number): string {
  return Number(n.toFixed(2)).toString();
}

/**
 * The extension of a file name, lower case, without the dot; null when it has none. Only the last
 * path segment counts (a browser may send "C:\\dir\\x.pdf").
 */
export function fileExtension(fileName: string): string | null {
  const base = baseName(fileName);
  const dot = base.lastIndexOf(".");
  if (dot <= 0 || dot === base.length - 1) return null;
  return base.slice(dot + 1).toLowerCase();
}

// control characters (Cc) and format characters (Cf: zero-width marks, bidirectional overrides): they could make a
// name display as another ("invoice\u202Efdp.exe")
const INVISIBLE = /[\p{Cc}\p{Cf}]/gu;

/**
 * The file name a document keeps: the last path segment, control characters removed, Unicode
 * normalised (NFC), trimmed. It is only ever shown and sent back in Content-Disposition, never used
 * as a storage path.
 */
export function baseName(fileName: string): string {
  const last = fileName.split(/[\\/]/).pop() ?? "";
  return last.normalize("NFC").replace(INVISIBLE, "").trim();
}

/** What is wrong with a file for the storage settings: its type, its emptiness or its size. */
export interface FileProblem {
  kind: "type" | "empty" | "size";
  message: string;
}

/**
 * The browser's and the upload endpoint's check of a file against the storage settings (before any
 * byte is sent): what is wrong with it, or null when it may be uploaded.
 */
export function fileProblem(
  file: { name: string; size: number },
  settings: { maxFileSize: number; allowedFileTypes: readonly string[] },
): FileProblem | null {
  const extension = fileExtension(file.name);
  if (!extension || !settings.allowedFileTypes.includes(extension)) {
    return { kind: "type", message: typeNotAllowedMessage(extension, settings.allowedFileTypes) };
  }
  if (file.size <= 0) return { kind: "empty", message: DOCUMENT_MESSAGES.emptyFile };
  if (file.size > settings.maxFileSize)
    return { kind: "size", message: fileTooLargeMessage(settings.maxFileSize) };
  return null;
}

/** {@link fileProblem}'s message, or null when the file may be uploaded. */
export function checkFile(
  file: { name: string; size: number },
  settings: { maxFileSize: number; allowedFileTypes: readonly string[] },
): string | null {
  return fileProblem(file, settings)?.message ?? null;
}

/** A document title (from the file name by default in the form). */
export const titleSchema = text({ error: DOCUMENT_MESSAGES.titleRequired })
  .trim()
  .min(1, DOCUMENT_MESSAGES.titleRequired)
  .max(TITLE_MAX, DOCUMENT_MESSAGES.titleTooLong);

export const descriptionSchema = text()
  .trim()
  .max(DESCRIPTION_MAX, DOCUMENT_MESSAGES.descriptionTooLong)
  .nullish()
  .transform((v) => (v ? v : null));

export const fileNameSchema = text({ error: DOCUMENT_MESSAGES.fileNameRequired })
  .transform(baseName)
  .pipe(
    z
      .string()
      .min(1, DOCUMENT_MESSAGES.fileNameRequired)
      .max(FILE_NAME_MAX, DOCUMENT_MESSAGES.fileNameTooLong),
  );

/** Spec §5 "Document": the required fields of a document row, with 'X is required' messages. */
export const documentSchema = z.object({
  title: titleSchema,
  fileName: fileNameSchema,
  fileType: text({ error: DOCUMENT_MESSAGES.fileTypeRequired })
    .trim()
    .min(1, DOCUMENT_MESSAGES.fileTypeRequired),
  fileUrl: text({ error: DOCUMENT_MESSAGES.fileUrlRequired })
    .trim()
    .min(1, DOCUMENT_MESSAGES.fileUrlRequired),
  fileSize: z.number().int().min(0).nullish(),
  description: descriptionSchema,
});

/**
 * What a tus upload declares when it is created (its Upload-Metadata, decoded): the document's title
 * and description, the file's name, and what the upload is for. `documentId` makes it the
 * resubmission of the owner's rejected document; `clientId` makes it a report for that client
 * (approve:documents only). Neither: a new document of the uploader's own.
 */
export const uploadMetadataSchema = z
  .object({
    title: titleSchema,
    description: descriptionSchema,
    filename: fileNameSchema,
    documentId: id().optional(),
    clientId: id().optional(),
  })
  .refine((m) => !(m.documentId && m.clientId), {
    message: "An upload is either a resubmission or a report, not both",
    path: ["clientId"],
  });

export type UploadMetadata = z.infer<typeof uploadMetadataSchema>;

/** The reviewer's rejection: a reason the client will read. */
export const rejectDocumentSchema = z.object({
  reason: text({ error: DOCUMENT_MESSAGES.reasonRequired })
    .trim()
    .min(1, DOCUMENT_MESSAGES.reasonRequired)
    .max(REASON_MAX, DOCUMENT_MESSAGES.reasonTooLong),
});

export const DOCUMENT_SORTS = ["createdAt_desc", "createdAt_asc", "title_asc", "title_desc"] as const;

/** An ISO 8601 instant with its offset, in the years 1 to 9999 (kept as text). */
const isoInstant = z.iso
  .datetime({ offset: true })
  .refine((v) => inInstantRange(new Date(v)), "Please enter a valid date");

/** Filters of the documents list (read:all_documents for other users' documents). */
export const documentFilterSchema = z.object({
  status: z.enum(DOCUMENT_STATUSES).optional(),
  /** the owner (admins only) */
  userId: id().optional(),
  fileType: text().trim().toLowerCase().max(10).optional(),
  /** created at or after (ISO instant) */
  from: isoInstant.optional(),
  /** created before (ISO instant) */
  to: isoInstant.optional(),
  /** matches title and file name, case-insensitive */
  search: text().trim().max(200).optional(),
  /** reports the team sent (true), documents clients sent (false), or both */
  fromTeam: z.boolean().optional(),
  sort: z.enum(DOCUMENT_SORTS).default("createdAt_desc"),
  first: z.number().int().min(1).max(100).default(25),
  /** opaque cursor from a previous page's endCursor */
  after: text().max(200).optional(),
});

export type DocumentFilter = z.infer<typeof documentFilterSchema>;

const cloudText = () =>
  text()
    .trim()
    .max(500)
    .optional()
    .transform((v) => (v ? v : undefined));

/**
 * The storage settings form and mutation (spec §5 "Storage settings"; `manage:config`). Sizes are
 * bytes (the form shows MB). Cloud fields are required when storageType is cloud; the secret may be
 * left empty to keep the one stored (it is never sent back).
 */
export const storageSettingsSchema = z
  .object({
    storageType: z.enum(["local", "cloud"], { error: DOCUMENT_MESSAGES.storageType }),
    maxFileSize: z
      .number({ error: DOCUMENT_MESSAGES.minMaxFileSize })
      .int(DOCUMENT_MESSAGES.minMaxFileSize)
      .min(MIN_MAX_FILE_SIZE, DOCUMENT_MESSAGES.minMaxFileSize)
      .max(MAX_MAX_FILE_SIZE, DOCUMENT_MESSAGES.maxMaxFileSize),
    allowedFileTypes: z
      .array(text().trim().toLowerCase().max(10))
      .min(1, DOCUMENT_MESSAGES.atLeastOneType)
      .superRefine((types, ctx) => {
        for (const type of types) {
          if (!(type in KNOWN_FILE_TYPES))
            ctx.addIssue({ code: "custom", message: unknownFileTypeMessage(type) });
        }
      })
      .transform((types) => [...new Set(types)]),
    cloudEndpoint: cloudText(),
    cloudRegion: cloudText(),
    cloudBucket: cloudText(),
    cloudForcePathStyle: z.boolean().default(true),
    cloudAccessKeyId: cloudText(),
    /** write-only: empty keeps the stored secret */
    cloudSecretAccessKey: text()
      .max(500)
      .optional()
      .transform((v) => (v ? v : undefined)),
  })
  .superRefine((s, ctx) => {
    if (s.cloudEndpoint && !URL.canParse(s.cloudEndpoint)) {
      ctx.addIssue({ code: "custom", path: ["cloudEndpoint"], message: DOCUMENT_MESSAGES.endpointUrl });
    }
    if (s.storageType !== "cloud") return;
    const required = [
      ["cloudEndpoint", DOCUMENT_MESSAGES.endpointRequired],
      ["cloudRegion", DOCUMENT_MESSAGES.regionRequired],
      ["cloudBucket", DOCUMENT_MESSAGES.bucketRequired],
      ["cloudAccessKeyId", DOCUMENT_MESSAGES.accessKeyRequired],
    ] as const;
    for (const [field, message] of required) {
      if (!s[field]) ctx.addIssue({ code: "custom", path: [field], message });
    }
  });

export type StorageSettingsInput = z.input<typeof storageSettingsSchema>;
export type StorageSettings = z.output<typeof storageSettingsSchema>;
