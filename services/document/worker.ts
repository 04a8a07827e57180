import { config } from "@services/shared/config";
import type { Db } from "@services/shared/db";
import type { Consumer } from "@services/shared/events/consumer";
import { roundTripConsumer } from "@services/shared/events/roundTrip";
import { startPeriodicSweep } from "@services/shared/jobs/periodicSweep";
import { logger } from "@services/shared/logger";
import { loadStorageConfig, localDocumentStorage, storageForBackend } from "./storage";
import type { StoragePort } from "./storage/port";
import { sweepOrphanObjects } from "./sweepOrphans";
import { sweepExpiredUploads, sweepStrayCloudUploads } from "./sweepUploads";

/**
 * The document service: document upload, review and download.
 * Its event consumers, started by a process whose WORKERS setting names "document" (or "all").
 */
export const consumers: Consumer[] = [roundTripConsumer("document")];

/**
 * The stores documents may be in: local always, and the cloud store while one is configured (its
 * objects are swept only then: the sweep needs to reach them).
 */
async function documentStores(db: Db): Promise<StoragePort[]> {
  const stores = [localDocumentStorage()];
  const row = await loadStorageConfig(db);
  if (row?.cloudEndpoint) {
    try {
      stores.push(await storageForBackend(db, "cloud"));
    } catch (err) {
      logger("document.sweep").warn({ err }, "cloud storage is not reachable with its settings: not swept");
    }
  }
  return stores;
}

/**
 * One sweep: unfinished uploads past their 24 hours and staged files no upload accounts for (locally
 * and in the cloud store), then
 * stored objects no document refers to (older than an hour) on each store.
 * @throws the first failure (the next sweep tries again).
 */
export async function sweepDocuments(
  db: Db,
): Promise<{ expiredUploads: number; strayUploads: number; orphans: number }> {
  const uploads = await sweepExpiredUploads({ db });
  let orphans = 0;
  let strays = uploads.strays;
  for (const storage of await documentStores(db)) {
    orphans += (await sweepOrphanObjects({ db, storage })).removed.length;
    if (storage.backend === "cloud") strays += await sweepStrayCloudUploads({ db, storage });
  }
  return { expiredUploads: uploads.expired, strayUploads: strays, orphans };
}

/**
 * The service's background work: every DOCUMENT_SWEEP_INTERVAL_MS (default hourly), {@link sweepDocuments}.
 * Any number of processes may run it: each removal is of something nothing refers to.
 */
export async function startWorkers(props: { db: Db }): Promise<{ stop(): Promise<void> }> {
  return startPeriodicSweep({
    name: "document.sweep",
    intervalMs: config().DOCUMENT_SWEEP_INTERVAL_MS,
    sweep: () => sweepDocuments(props.db),
  });
}
