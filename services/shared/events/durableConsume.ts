import { setTimeout as sleep } from "node:timers/promises";
import type { ConsumerMessages, JetStreamClient, JsMsg } from "@nats-io/jetstream";
import type { Logger } from "pino";

export interface DurableConsumeOptions {
  js: JetStreamClient;
  stream: string;
  /** the durable pull consumer, created by the caller before the loop starts */
  durable: string;
  /** messages buffered per consume */
  batch: number;
  /** how many messages are handled at once (default 1: one after the other) */
  concurrency?: number;
  log: Logger;
  /** what the log calls the consumer ("consumer", "ack consumer") */
  label: string;
  /** creates the stream and the consumer again before consumption resumes after a failure */
  recreate: () => Promise<void>;
  /** settles one message; it should not throw (a throw interrupts this consume and starts another) */
  handle: (m: JsMsg) => Promise<void>;
}

export interface DurableConsumer {
  /** Stops consuming after the messages in hand are handled. */
  stop(): Promise<void>;
}

/**
 * Consumes a durable JetStream pull consumer until stopped. When the consume ends or fails (the
 * consumer or stream deleted, NATS restarted without its storage, the connection lost) it waits
 * with a growing backoff (up to 5 s), creates them again with `recreate` and resumes.
 */
export function consumeDurable(opts: DurableConsumeOptions): DurableConsumer {
  const { js, stream, durable, log, label } = opts;
  const limit = opts.concurrency ?? 1;
  let stopped = false;
  let current: ConsumerMessages | undefined;
  // ends a backoff wait at once when the consumer stops
  const stopping = new AbortController();

  const loop = (async () => {
    let failures = 0;
    let fresh = true;
    while (!stopped) {
      try {
        if (!fresh) {
          await opts.recreate();
          log.info(`${label} recreated, resuming`);
        }
        fresh = false;
        const consumer = await js.consumers.get(stream, durable);
        const messages = await consumer.consume({
          max_messages: opts.batch,
          abort_on_missing_resource: true,
        });
        current = messages;
        if (stopped) {
          messages.stop();
          break;
        }
        void (async () => {
          for await (const status of messages.status()) {
            if (status.type === "consumer_deleted") {
              log.warn(`${label} deleted on the server`);
              messages.stop();
            }
          }
        })().catch(() => undefined);
        const running = new Set<Promise<void>>();
        try {
          for await (const m of messages) {
            failures = 0;
            if (limit <= 1) await opts.handle(m);
            else {
              while (running.size >= limit) await Promise.race(running);
              const p: Promise<void> = opts.handle(m).finally(() => running.delete(p));
              running.add(p);
            }
            if (stopped) break;
          }
        } finally {
          await Promise.all(running);
        }
      } catch (err) {
        if (stopped) break;
        log.warn({ err }, `${label} interrupted`);
      }
      if (stopped) break;
      failures++;
      await sleep(Math.min(100 * 2 ** Math.min(failures, 6), 5000), undefined, {
        signal: stopping.signal,
      }).catch(() => undefined);
    }
  })();

  return {
    async stop() {
      if (stopped) return loop;
      stopped = true;
      stopping.abort();
      current?.stop();
      await loop;
    },
  };
}
