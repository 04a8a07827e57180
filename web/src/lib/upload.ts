import { defaultOptions, type PreviousUpload, Upload } from "tus-js-client";

// Resumable uploads to the portal's tus endpoint (issue 9, contract REST notes: tus 1.0 at
// /api/uploads). tus-js-client keeps each upload's URL in localStorage under a fingerprint of the
// file and what it is for, so the same file added again after a dropped connection or a page reload
// continues where it stopped; the entry is removed once the upload has finished, or once the server
// refused it for good (its content, size or type): such an upload can never be continued.

/** What an upload is for: a new document, the resubmission of a rejected one, or a report for a client. */
export type UploadPurpose =
  | { kind: "new" }
  | { kind: "resubmit"; documentId: number }
  | { kind: "report"; clientId: number };

/** One file to upload and the document's details (Upload-Metadata). */
export interface UploadRequest {
  /** the tus endpoint, from uploadPolicy ("/api/uploads") */
  endpoint: string;
  file: File;
  title: string;
  description?: string | null;
  purpose: UploadPurpose;
}

/** The document the server answered the final PATCH with (`{"document": {...}}`), as far as it is known. */
export interface UploadedDocument {
  id: number;
  title: string;
  status?: string;
}

/** What an upload reports while it runs. */
export interface UploadCallbacks {
  onProgress(sent: number, total: number): void;
  onSuccess(document: UploadedDocument | null): void;
  /** the message to show the user (the server's when it gave one) */
  onError(message: string): void;
}

/** A running upload: pause keeps it on the server, resume continues it, cancel deletes it there. */
export interface UploadHandle {
  pause(): Promise<void>;
  resume(): void;
  cancel(): Promise<void>;
}

/** Bytes per PATCH: small enough for progress, pause and a cheap retry, large enough to be fast. */
export const UPLOAD_CHUNK_SIZE = 8 * 1024 * 1024;
/** Waits (ms) before each retry after a dropped connection or a 5xx; 4xx answers are not retried. */
export const UPLOAD_RETRY_DELAYS = [0, 1000, 3000, 5000, 10_000, 20_000];
/** The prefix of this portal's fingerprints in tus-js-client's URL storage. */
export const FINGERPRINT_PREFIX = "portal-doc";

const GENERIC_FAILURE = "The upload failed. Check your connection and try again.";

/** The Upload-Metadata of a request (tus sends each value base64-encoded). */
export function uploadMetadata(request: Omit<UploadRequest, "endpoint">): Record<string, string> {
  const metadata: Record<string, string> = { filename: request.file.name, title: request.title.trim() };
  const description = request.description?.trim();
  if (description) metadata.description = description;
  if (request.purpose.kind === "resubmit") metadata.documentId = String(request.purpose.documentId);
  if (request.purpose.kind === "report") metadata.clientId = String(request.purpose.clientId);
  return metadata;
}

/**
 * The key under which an upload's URL is kept for resuming: the file (name, type, size, last
 * modified), what the upload is for and where it goes. The same file sent for another purpose is
 * another upload.
 */
export function uploadFingerprint(
  file: Pick<File, "name" | "type" | "size" | "lastModified">,
  purpose: UploadPurpose,
  endpoint: string,
): string {
  const what =
    purpose.kind === "new"
      ? "new"
      : purpose.kind === "resubmit"
        ? `resubmit${purpose.documentId}`
        : `report${purpose.clientId}`;
  return [FINGERPRINT_PREFIX, what, file.name, file.type, file.size, file.lastModified, endpoint].join("-");
}

/** What the error of a failed upload may carry (tus-js-client's DetailedError). */
interface UploadErrorLike {
  message?: unknown;
  originalResponse?: { getStatus(): number; getBody(): string } | null;
}

/**
 * The message to show for a failed upload: the server's text/plain answer (413, 415, 422, 400, 403)
 * when it gave a short readable one, else a generic line (a network failure, an HTML error page).
 */
export function uploadErrorMessage(error: unknown): string {
  const response = (error as UploadErrorLike | null)?.originalResponse;
  if (response) {
    const status = response.getStatus();
    const body = (response.getBody() ?? "").trim();
    if (status === 401) return "Your session has ended. Please log in again.";
    if (body && body.length <= 500 && !body.startsWith("<")) return readableBody(body);
    if (status === 413) return "The file is too large.";
    if (status === 415) return "This type of file is not allowed.";
  }
  return GENERIC_FAILURE;
}

/**
 * Refusals after which the same upload may still continue: signed out (sign in again), a timeout, an
 * offset or lock conflict, too many requests. Any other 4xx ends it for good.
 */
const PASSING_REFUSALS = new Set([401, 408, 409, 423, 429]);

/**
 * Whether the server refused an upload for good (its content, size or type, or the upload is gone:
 * 4xx but a passing one), so that it can never be continued: it is then forgotten in this browser
 * and not offered again as unfinished.
 */
export function uploadRefusedForGood(error: unknown): boolean {
  const status = (error as UploadErrorLike | null)?.originalResponse?.getStatus();
  return status !== undefined && status >= 400 && status < 500 && !PASSING_REFUSALS.has(status);
}

/** Forgets every upload of `fingerprint` this browser kept for resuming (never throws). */
async function forgetUploads(fingerprint: string): Promise<void> {
  const storage = defaultOptions.urlStorage;
  try {
    const kept = await storage.findUploadsByFingerprint(fingerprint);
    await Promise.all(kept.map((u) => storage.removeUpload(u.urlStorageKey)));
  } catch {
    // storage unavailable (private mode): nothing was kept
  }
}

/** A JSON error body's `message`, or the text itself. */
function readableBody(body: string): string {
  if (!body.startsWith("{")) return body;
  try {
    const parsed = JSON.parse(body) as { message?: unknown; error?: unknown };
    if (typeof parsed.message === "string" && parsed.message) return parsed.message;
    if (typeof parsed.error === "string" && parsed.error) return parsed.error;
  } catch {
    // not JSON after all: show it as it is
  }
  return body;
}

/** The document of the final PATCH's JSON answer, or null when the answer has none. */
export function uploadedDocument(body: string): UploadedDocument | null {
  try {
    const parsed = JSON.parse(body) as { document?: { id?: unknown; title?: unknown; status?: unknown } };
    const doc = parsed.document;
    if (!doc || typeof doc.id !== "number") return null;
    return {
      id: doc.id,
      title: typeof doc.title === "string" ? doc.title : "",
      status: typeof doc.status === "string" ? doc.status : undefined,
    };
  } catch {
    return null;
  }
}

/**
 * Starts (or resumes, when this browser has an unfinished upload of the same file for the same
 * purpose) a tus upload and reports its progress and outcome through `callbacks`.
 */
export function startUpload(request: UploadRequest, callbacks: UploadCallbacks): UploadHandle {
  const { file, purpose, endpoint } = request;
  const fingerprint = uploadFingerprint(file, purpose, endpoint);
  // starting: looking for an earlier upload of the same file; done: finished, failed or cancelled
  let state: "starting" | "running" | "paused" | "done" = "starting";
  const upload = new Upload(file, {
    endpoint,
    chunkSize: UPLOAD_CHUNK_SIZE,
    retryDelays: UPLOAD_RETRY_DELAYS,
    metadata: uploadMetadata(request),
    fingerprint: () => Promise.resolve(fingerprint),
    storeFingerprintForResuming: true,
    removeFingerprintOnSuccess: true,
    onProgress: (sent, total) => callbacks.onProgress(sent, total),
    onSuccess: ({ lastResponse }) => {
      state = "done";
      callbacks.onSuccess(uploadedDocument(lastResponse.getBody() ?? ""));
    },
    onError: (error) => {
      state = "done";
      const message = uploadErrorMessage(error);
      // a refused upload can never finish: it is not offered as unfinished after a reload
      const forgotten = uploadRefusedForGood(error) ? forgetUploads(fingerprint) : Promise.resolve();
      void forgotten.then(() => callbacks.onError(message));
    },
  });
  const ready = upload
    .findPreviousUploads()
    .then((previous) => {
      const latest = newestFirst(previous)[0];
      if (latest) upload.resumeFromPreviousUpload(latest);
    })
    .catch(() => undefined);
  void ready.then(() => {
    if (state !== "starting") return;
    state = "running";
    upload.start();
  });
  return {
    async pause() {
      if (state === "done") return;
      state = "paused";
      await upload.abort(false);
    },
    resume() {
      if (state !== "paused") return;
      state = "running";
      void ready.then(() => upload.start());
    },
    async cancel() {
      state = "done";
      await ready;
      // abort(true) DELETEs the upload on the server (the staged bytes go) and forgets its URL
      await upload.abort(true).catch(() => undefined);
    },
  };
}

function newestFirst(uploads: PreviousUpload[]): PreviousUpload[] {
  return [...uploads].sort((a, b) => Date.parse(b.creationTime) - Date.parse(a.creationTime));
}

/** An upload this browser started and did not finish (kept for resuming). */
export interface UnfinishedUpload {
  fileName: string;
  title: string;
  size: number | null;
  startedAt: string;
  key: string;
  url: string | null;
}

/** The portal's unfinished uploads kept in this browser, newest first. */
export async function unfinishedUploads(): Promise<UnfinishedUpload[]> {
  const all = await defaultOptions.urlStorage.findAllUploads().catch(() => [] as PreviousUpload[]);
  return newestFirst(all.filter((u) => u.urlStorageKey.startsWith(`tus::${FINGERPRINT_PREFIX}-`))).map(
    (u) => ({
      fileName: u.metadata.filename ?? "",
      title: u.metadata.title ?? "",
      size: u.size,
      startedAt: u.creationTime,
      key: u.urlStorageKey,
      url: u.uploadUrl,
    }),
  );
}

/** Deletes an unfinished upload on the server (when it is still there) and forgets it in this browser. */
export async function discardUnfinishedUpload(upload: UnfinishedUpload): Promise<void> {
  if (upload.url) await Upload.terminate(upload.url, { retryDelays: [] }).catch(() => undefined);
  await defaultOptions.urlStorage.removeUpload(upload.key);
}
