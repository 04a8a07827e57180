import type { Consumer } from "../shared/events/consumer";

/**
 * The document service: document upload, review and download.
 * Its event consumers, started by a process whose WORKERS setting names "document" (or "all").
 */
export const consumers: Consumer[] = [];
