import { randomUUID } from "node:crypto";
import path from "node:path";
import { config } from "@services/shared/config";
import type { Db } from "@services/shared/db";
import { AppError } from "@services/shared/errors";
import type { StorageConfig } from "@services/shared/generated/prisma/client";
import { unsealSetting } from "@services/shared/sealed";
import { createLocalStorage } from "./local";
import type { StorageBackendName, StoragePort } from "./port";
import { type CloudSettings, createS3Storage } from "./s3";

// Which storage a document's bytes go to and come from. A new upload goes to the backend
// storage_config names now; an existing file is read from the backend its row recorded, so changing
// the setting never strands old files.

export { InvalidStorageKeyError } from "./local";
export type { DownloadTarget, StorageBackendName, StoragePort, StoredObjectInfo } from "./port";
export { StorageNotFoundError } from "./port";
export type { CloudSettings } from "./s3";

let local: { root: string; port: StoragePort } | undefined;

/** The local adapter under DATA_DIR/documents (one per data directory). */
export function localDocumentStorage(): StoragePort {
  const root = path.join(config().DATA_DIR, "documents");
  if (local?.root !== root) local = { root, port: createLocalStorage(root) };
  return local.port;
}

/**
 * The storage settings row (the one with the lowest id, which the seed creates); null when there is
 * none, which means the defaults (local storage).
 */
export function loadStorageConfig(db: Db): Promise<StorageConfig | null> {
  return db.prisma.storageConfig.findFirst({ orderBy: { id: "asc" } });
}

/**
 * The cloud settings a storage_config row holds, its secret opened; null when a field is missing.
 * @throws SealError when the stored secret cannot be opened (sealed under another SESSION_SECRET).
 */
export function cloudSettingsOf(row: StorageConfig | null): CloudSettings | null {
  if (!row?.cloudEndpoint || !row.cloudRegion || !row.cloudBucket || !row.cloudAccessKeyId) return null;
  if (!row.cloudSecretSealed) return null;
  return {
    endpoint: row.cloudEndpoint,
    region: row.cloudRegion,
    bucket: row.cloudBucket,
    forcePathStyle: row.cloudForcePathStyle,
    accessKeyId: row.cloudAccessKeyId,
    secretAccessKey: unsealSetting(row.cloudSecretSealed),
  };
}

/**
 * The adapter of `backend`: local, or the cloud store storage_config describes now (for reading a
 * file a document recorded there, or writing a new one).
 * @throws AppError UNAVAILABLE when cloud storage is asked for but not fully configured.
 */
export async function storageForBackend(db: Db, backend: StorageBackendName): Promise<StoragePort> {
  if (backend === "local") return localDocumentStorage();
  const settings = cloudSettingsOf(await loadStorageConfig(db));
  if (!settings) throw new AppError("UNAVAILABLE", "Cloud storage is not configured");
  return createS3Storage(settings);
}

/**
 * Where a new upload goes: the backend storage_config names (local when there is no row).
 * @throws AppError UNAVAILABLE when that is cloud and it is not fully configured.
 */
export async function storageForNewUploads(db: Db): Promise<StoragePort> {
  const row = await loadStorageConfig(db);
  return storageForBackend(db, row?.storageType ?? "local");
}

/** A new object key, "documents/<yyyy>/<mm>/<uuid>" (UTC): never derived from a user's file name. */
export function newStorageKey(now: Date = new Date()): string {
  const year = now.getUTCFullYear().toString().padStart(4, "0");
  const month = (now.getUTCMonth() + 1).toString().padStart(2, "0");
  return `documents/${year}/${month}/${randomUUID()}`;
}
