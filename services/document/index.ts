import { config } from "../shared/config";
import type { Db } from "../shared/db";
import type { Consumer } from "../shared/events/consumer";
import { startPeriodicSweep, sweepExpiredUploads } from "./sweepUploads";

/**
 * The document service: document upload, review and download.
 * Its event consumers, started by a process whose WORKERS setting names "document" (or "all").
 */
export const consumers: Consumer[] = [];

/**
 * The service's background work: every DOCUMENT_SWEEP_INTERVAL_MS (default hourly), the sweep of
 * unfinished uploads past their 24 hours and of staged files no upload accounts for.
 */
export async function startWorkers(props: { db: Db }): Promise<{ stop(): Promise<void> }> {
  return startPeriodicSweep({
    name: "document.sweep",
    intervalMs: config().DOCUMENT_SWEEP_INTERVAL_MS,
    sweep: () => sweepExpiredUploads({ db: props.db }),
  });
}
