import { services } from "@services/registry";
import type { Consumer } from "@services/shared/events/consumer";

/**
 * Test helpers of the diagnostics service that other rooms' tests may use (never production code):
 * the consumers a test of the testing tools runs in its own process.
 */

const registered: Consumer[] = Object.values(services).flatMap((s) => s.consumers);

/** Every service's consumer of the round-trip event: the consumers a round trip waits for. */
export const ROUND_TRIP_CONSUMERS: Consumer[] = registered.filter((c) =>
  c.events.includes("diagnostics.round_trip_requested"),
);

/** The user service's sync-state consumer, whose dead letters the tests retry. */
export const SYNC_STATE_CONSUMERS: Consumer[] = registered.filter((c) => c.name === "user_esrt_sync_state");
