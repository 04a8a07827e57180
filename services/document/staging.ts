import { rm } from "node:fs/promises";
import path from "node:path";
import { config } from "@services/shared/config";

// The private staging area of tus uploads: DATA_DIR/uploads, never served over HTTP. The tus file
// store keeps each upload as two files: `<id>` (the bytes received so far) and `<id>.json` (its
// length, offset and metadata). Nothing else is written there.

/** How long an unfinished upload may wait before the sweep removes it. */
export const UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;

/** Upload ids: 32 lower-case hex digits (16 random bytes), the only names the staging area holds. */
export const UPLOAD_ID_PATTERN = /^[0-9a-f]{32}$/;

/** The staging area's folder under DATA_DIR. */
export const STAGING_FOLDER = "uploads";

/** The staging directory of the process-wide configuration (DATA_DIR/uploads). */
export function stagingDirectory(): string {
  return path.join(config().DATA_DIR, STAGING_FOLDER);
}

/** The staged bytes of upload `uploadId` in `directory`. @throws Error for an id that is no upload id. */
export function stagedFilePath(directory: string, uploadId: string): string {
  if (!UPLOAD_ID_PATTERN.test(uploadId)) throw new Error("not an upload id");
  return path.join(directory, uploadId);
}

/** Removes the staged bytes at `stagedPath` and the file store's record beside them; never throws. */
export async function removeStaged(stagedPath: string): Promise<void> {
  await Promise.all([
    rm(stagedPath, { force: true }).catch(() => undefined),
    rm(`${stagedPath}.json`, { force: true }).catch(() => undefined),
  ]);
}
