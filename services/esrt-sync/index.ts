import type { Consumer } from "../shared/events/consumer";
import { userSnapshotsConsumer } from "./consumers/userSnapshots";

/**
 * The esrt-sync service: synchronisation of users with the Pro app (ESRT Pro).
 * Its event consumers, started by a process whose WORKERS setting names "esrt-sync" (or "all").
 */
export const consumers: Consumer[] = [userSnapshotsConsumer];
