import type { Consumer } from "../shared/events/consumer";
import { esrtSyncStateConsumer } from "./consumers/esrtSyncState";

/**
 * The user service: accounts, sessions, permissions, security questions and notes (identity issue).
 * Its event consumers, started by a process whose WORKERS setting names "user" (or "all").
 */
export const consumers: Consumer[] = [esrtSyncStateConsumer];
