import { Intent } from "@blueprintjs/core";
import {
  baseName,
  checkFile,
  type DocumentStatusName,
  descriptionSchema,
  TITLE_MAX,
  titleSchema,
} from "@schema/validation/document";

// The documents screens' logic apart from React (issue 9): titles from file names, the checks a
// file and its details pass before an upload, labels of statuses and history entries, dates, the
// filter's date range, and merging "Load more" pages.

/** How each status shows. */
export const DOCUMENT_STATUS_TAGS: Record<DocumentStatusName, { text: string; intent: Intent }> = {
  pending: { text: "Pending", intent: Intent.WARNING },
  approved: { text: "Approved", intent: Intent.SUCCESS },
  rejected: { text: "Rejected", intent: Intent.DANGER },
};

/** What each history action reads as. */
export const HISTORY_ACTION_LABELS = {
  uploaded: "Uploaded",
  resubmitted: "Resubmitted",
  approved: "Approved",
  rejected: "Rejected",
  report: "Sent by the team",
} as const;

/** The title a file gets by default: its name without the last extension (at most TITLE_MAX characters). */
export function titleFromFileName(fileName: string): string {
  const base = baseName(fileName);
  const dot = base.lastIndexOf(".");
  const stem = dot > 0 ? base.slice(0, dot).trim() : base;
  return (stem || base).slice(0, TITLE_MAX);
}

/** What the browser knows of the upload rules (uploadPolicy). */
export interface PolicyLike {
  maxFileSize: number;
  allowedFileTypes: readonly string[];
}

/** The problems of one file waiting to be uploaded: the file itself, its title, its description. */
export interface DraftProblems {
  file: string | null;
  title: string | null;
  description: string | null;
}

/** Checks a file and the details typed for it with the shared rules and messages (the server's own). */
export function draftProblems(
  draft: { file: { name: string; size: number }; title: string; description: string },
  policy: PolicyLike | null,
): DraftProblems {
  const title = titleSchema.safeParse(draft.title);
  const description = descriptionSchema.safeParse(draft.description);
  return {
    file: policy ? checkFile(draft.file, policy) : null,
    title: title.success ? null : (title.error.issues[0]?.message ?? null),
    description: description.success ? null : (description.error.issues[0]?.message ?? null),
  };
}

/** Whether a draft has no problem at all. */
export function draftIsValid(problems: DraftProblems): boolean {
  return !problems.file && !problems.title && !problems.description;
}

/** The `accept` attribute of a file picker for the allowed types (".pdf,.png"). */
export function acceptAttribute(allowedFileTypes: readonly string[]): string {
  return allowedFileTypes.map((t) => `.${t}`).join(",");
}

const DATE_TIME = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short" });
const DATE = new Intl.DateTimeFormat("en-US", { dateStyle: "medium" });

/** An instant in the browser's time zone: "Mar 8, 2032, 3:04 PM". */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "" : DATE_TIME.format(date);
}

/** A day in the browser's time zone: "Mar 8, 2032". */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "" : DATE.format(date);
}

/** A person's name for lists: first and last name, else the username. */
export function personName(p: { firstName: string; lastName: string; username: string }): string {
  return `${p.firstName} ${p.lastName}`.trim() || p.username;
}

/** A client as the report picker lists them: "Ada Lovelace (Acme) · ada@example.test". */
export function clientLabel(c: {
  firstName: string;
  lastName: string;
  username: string;
  email: string;
  companyName?: string | null;
}): string {
  const company = c.companyName ? ` (${c.companyName})` : "";
  return `${personName(c)}${company} · ${c.email}`;
}

/**
 * The filter's from/to for a range of local days (YYYY-MM-DD, either may be empty): `from` the
 * start of the first day, `to` the start of the day after the last (the server's `to` is
 * exclusive). Null when a date is not a valid day or the range ends before it starts.
 */
export function dayRange(from: string, to: string): { from?: string; to?: string } | null {
  const start = from ? localDayStart(from, 0) : undefined;
  const end = to ? localDayStart(to, 1) : undefined;
  if (start === null || end === null) return null;
  if (start && end && start >= end) return null;
  return { ...(start ? { from: start } : {}), ...(end ? { to: end } : {}) };
}

function localDayStart(day: string, plusDays: number): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const local = new Date(year, month - 1, date);
  if (local.getFullYear() !== year || local.getMonth() !== month - 1 || local.getDate() !== date) return null;
  local.setDate(local.getDate() + plusDays);
  return local.toISOString();
}

/** A page of a document list. */
export interface PageLike<T extends { id: number }> {
  nodes: T[];
  endCursor: string | null;
  hasNextPage: boolean;
}

/** The list after "Load more": the earlier nodes, then the new page's ones not already shown. */
export function appendPage<T extends { id: number }, P extends PageLike<T>>(earlier: P, next: P): P {
  const seen = new Set(earlier.nodes.map((n) => n.id));
  return { ...next, nodes: [...earlier.nodes, ...next.nodes.filter((n) => !seen.has(n.id))] };
}

/** Megabytes (decimal, as the settings form shows them) to bytes: round(MB × 1,000,000). */
export function megabytesToBytes(megabytes: number): number {
  return Math.round(megabytes * 1_000_000);
}

/** Bytes to megabytes for the settings form (1,500,000 → 1.5). */
export function bytesToMegabytes(bytes: number): number {
  return bytes / 1_000_000;
}

/** How an upload's progress reads: "3.2 MB of 10 MB (32%)". */
export function progressLabel(sent: number, total: number, format: (bytes: number) => string): string {
  if (total <= 0) return "Starting…";
  const percent = Math.floor((sent / total) * 100);
  return `${format(sent)} of ${format(total)} (${percent}%)`;
}

/** Why a PDF preview could not be fetched, from the preview endpoint's HTTP status. */
export function pdfPreviewError(status: number): string {
  if (status === 404) return "The file was not found.";
  if (status === 401 || status === 403) return "You may not see this file.";
  if (status === 415) return "This file cannot be previewed.";
  return `The preview could not be loaded (error ${status}).`;
}

/** What a PDF that pdf.js could not open reads as (its exceptions are named, their messages terse). */
export function pdfOpenError(err: unknown): string {
  const name = err instanceof Error ? err.name : "";
  if (name === "PasswordException") return "The PDF is protected by a password.";
  if (name === "InvalidPDFException") return "The file is not a PDF the preview can read.";
  return err instanceof Error && err.message ? err.message : "The preview could not be shown.";
}

/** What a preview shows: PDF pages, an image, or nothing (no previewUrl or another type). */
export function previewKind(doc: {
  previewUrl: string | null;
  mimeType: string | null;
}): "pdf" | "image" | null {
  if (!doc.previewUrl) return null;
  if (doc.mimeType === "application/pdf") return "pdf";
  if (doc.mimeType?.startsWith("image/")) return "image";
  return null;
}

/** The ids of the selected documents that can still be approved (pending ones on screen). */
export function approvableSelection(
  selected: ReadonlySet<number>,
  shown: readonly { id: number; status: DocumentStatusName }[],
): number[] {
  return shown.filter((d) => d.status === "pending" && selected.has(d.id)).map((d) => d.id);
}
