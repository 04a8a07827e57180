import type { NatsConnection } from "@nats-io/transport-node";
import { config } from "@services/shared/config";
import type { Db } from "@services/shared/db";
import type { Consumer } from "@services/shared/events/consumer";
import { roundTripConsumer } from "@services/shared/events/roundTrip";
import { userSnapshotsConsumer } from "./consumers/userSnapshots";
import { startDispatcher } from "./dispatcher";
import { startJobRunner } from "./jobs";
import { startEsrtNats } from "./natsChannel";

/**
 * The esrt-sync service: synchronisation of users with the Pro app (ESRT Pro).
 * Its event consumers, started by a process whose WORKERS setting names "esrt-sync" (or "all").
 */
export const consumers: Consumer[] = [userSnapshotsConsumer, roundTripConsumer("esrt-sync")];

/**
 * The service's background work: the dispatcher (webhooks, and NATS where the bus is NATS and
 * ESRT_NATS is on), with the Pro app's NATS acknowledgements, and the job runner (resync all).
 */
export async function startWorkers(props: {
  db: Db;
  nc?: NatsConnection;
}): Promise<{ stop(): Promise<void> }> {
  const nats =
    props.nc && config().ESRT_NATS ? await startEsrtNats({ db: props.db, nc: props.nc }) : undefined;
  const dispatcher = await startDispatcher({ db: props.db, nats });
  const jobs = await startJobRunner(props.db);
  return {
    async stop() {
      await jobs.stop();
      await dispatcher.stop();
      await nats?.stop();
    },
  };
}
