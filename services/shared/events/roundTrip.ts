import { type Consumer, defineConsumer } from "./consumer";

/** The suffix of every service's round-trip consumer: `<service>_round_trip`. */
export const ROUND_TRIP_SUFFIX = "_round_trip";

/**
 * A service's consumer of the testing tools' round trip (diagnostics.round_trip_requested): it does
 * nothing, so the inbox row the consumer runtime writes (processed_events, with its processedAt) is
 * the service's answer, read by services/diagnostics/roundTrip.ts. It runs on the service's own
 * durable, beside the service's other consumers, so it answers only while that service's workers
 * consume.
 * @throws Error when the service name makes an invalid durable name.
 */
export function roundTripConsumer(service: string): Consumer {
  return defineConsumer({
    name: `${service.replace(/-/g, "_")}${ROUND_TRIP_SUFFIX}`,
    events: ["diagnostics.round_trip_requested"],
    async handle() {
      // the inbox row is the answer
    },
  });
}
