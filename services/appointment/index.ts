import type { Consumer } from "../shared/events/consumer";

/**
 * The appointment service: consultation booking and its administration.
 * Its event consumers, started by a process whose WORKERS setting names "appointment" (or "all").
 */
export const consumers: Consumer[] = [];
