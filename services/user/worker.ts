import type { Db } from "@services/shared/db";
import type { Consumer } from "@services/shared/events/consumer";
import { roundTripConsumer } from "@services/shared/events/roundTrip";
import { esrtSyncStateConsumer } from "./consumers/esrtSyncState";
import { startUserJobRunner } from "./jobs/runner";

/**
 * The user service: accounts, sessions, permissions, security questions and notes (identity issue).
 * Its event consumers, started by a process whose WORKERS setting names "user" (or "all").
 */
export const consumers: Consumer[] = [esrtSyncStateConsumer, roundTripConsumer("user")];

/**
 * The service's background work: the runner of user jobs (bulk changes and client imports, issue 11).
 * A status or type change made there refuses the user's older sessions through sessionsValidAfter,
 * as a single change does, on the user's next request.
 */
export async function startWorkers(props: { db: Db }): Promise<{ stop(): Promise<void> }> {
  return startUserJobRunner(props.db);
}
