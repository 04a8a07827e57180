import type { JetStreamClient } from "@nats-io/jetstream";
import pino from "pino";
import { consumeDurable } from "./durableConsume";

// The consume loop's own behaviour around NATS (the consumers and the bus over a real JetStream are
// tested in transport.test.ts and consumer.test.ts): here the NATS client is a stand-in that fails,
// so that the loop sits in its backoff.

describe("a durable consumer's loop", () => {
  it("stops at once while it waits to try again, not after the wait", async () => {
    let lookups = 0;
    // NATS unreachable: every lookup of the consumer fails
    const js = {
      consumers: {
        get: async () => {
          lookups += 1;
          throw new Error("no responders");
        },
      },
    } as unknown as JetStreamClient;
    // the loop logs each failure just before it starts waiting
    let logged = 0;
    let fourth: (() => void) | undefined;
    const waitingAfterFourth = new Promise<void>((resolve) => {
      fourth = resolve;
    });
    const log = pino({ level: "silent" });
    log.warn = ((..._args: unknown[]) => {
      logged += 1;
      if (logged === 4) fourth?.();
    }) as typeof log.warn;
    const consumer = consumeDurable({
      js,
      stream: "S",
      durable: "d",
      batch: 1,
      log,
      label: "consumer",
      recreate: async () => undefined,
      handle: async () => undefined,
    });
    // after the fourth failure the loop waits 1.6 s before the fifth attempt
    await waitingAfterFourth;
    const started = Date.now();
    await consumer.stop();
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(lookups).toBe(4);
  });
});
