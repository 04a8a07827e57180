import type { Db } from "@services/shared/db";
import type { EventTransport } from "@services/shared/events/transport";
import type { ServiceCheck } from "@services/shared/runtime";
import { withTimeout } from "@services/shared/timeout";

/**
 * What the testing tools probe, from the running process (services/shared/runtime.ts): the database,
 * the readiness checks of sessions and events (each with its mode), and the event bus.
 */
export interface SystemProbes {
  db: Db;
  readiness: Partial<Record<"database" | "sessions" | "events", ServiceCheck>>;
  /** the event bus of this process; absent where the process has none (a test app) */
  transport?: EventTransport;
}

/** How long each probe may take before its dependency shows as down. */
export const PROBE_TIMEOUT_MS = 2000;

/**
 * Settles `work` within `ms`: its value, or a rejection saying it did not answer in time (the work
 * itself is left behind).
 * @throws the work's error, or Error "no answer within N ms".
 */
export function within<T>(work: () => Promise<T>, ms: number): Promise<T> {
  return withTimeout(work, ms, () => new Error(`no answer within ${ms} ms`));
}
