import { logger } from "../logger";
import type { EventTransport, SubscribeOptions, Subscription, TransportMessage } from "./transport";
import { assertDurableName, backoffFor, subjectMatches } from "./transport";

// The in-process event bus of the embedded mode (`make start` without NATS). Same guarantees as
// JetStream within one process: dedupe by msgId within a window, durable positions that survive a
// stop/subscribe, at-least-once delivery, redelivery with backoff, maxDeliver. Messages live in
// memory only: the outbox in the database is what survives a restart.

interface Stored {
  seq: number;
  subject: string;
  data: Uint8Array;
}

interface Outstanding {
  seq: number;
  deliveries: number;
  dueAt: number;
  inFlight: boolean;
}

interface Durable {
  opts: SubscribeOptions;
  /** first stream sequence never delivered to this durable */
  nextSeq: number;
  outstanding: Map<number, Outstanding>;
  /** pumps waiting for a message */
  wakers: Set<() => void>;
}

export interface MemoryTransportOptions {
  /** window in which a repeated msgId is ignored (default 2 minutes, like the stream) */
  duplicateWindowMs?: number;
  /** messages kept for durables that have not read them yet (default 100,000) */
  maxMessages?: number;
}

/** Creates the in-process event bus. */
export function memoryTransport(options: MemoryTransportOptions = {}): EventTransport {
  const duplicateWindowMs = options.duplicateWindowMs ?? 120_000;
  const maxMessages = options.maxMessages ?? 100_000;
  const log = logger("memory-bus");
  const messages: Stored[] = [];
  const seen = new Map<string, number>();
  const durables = new Map<string, Durable>();
  let lastSeq = 0;
  let closed = false;

  const firstSeq = () => messages[0]?.seq ?? lastSeq + 1;
  const find = (seq: number) => messages[seq - firstSeq()];
  const wakeAll = (d: Durable) => {
    for (const wake of d.wakers) wake();
  };
  const matches = (d: Durable, subject: string) => d.opts.subjects.some((f) => subjectMatches(f, subject));

  /** Messages of the stream not yet delivered to this durable. */
  function undelivered(d: Durable): number {
    let count = 0;
    for (let seq = Math.max(d.nextSeq, firstSeq()); seq <= lastSeq; seq++) {
      const message = find(seq);
      if (message && matches(d, message.subject)) count++;
    }
    return count;
  }

  /** Takes the next message due for this durable, or returns the ms to wait. */
  function take(d: Durable): { message: Stored; entry: Outstanding } | { waitMs: number } {
    const now = Date.now();
    let waitMs = 60_000;
    let due: Outstanding | undefined;
    for (const entry of d.outstanding.values()) {
      if (entry.inFlight) continue;
      if (entry.dueAt <= now) {
        if (!due || entry.seq < due.seq) due = entry;
      } else waitMs = Math.min(waitMs, entry.dueAt - now);
    }
    if (due) {
      const message = find(due.seq);
      if (message) return { message, entry: due };
      d.outstanding.delete(due.seq);
      return { waitMs: 0 };
    }
    d.nextSeq = Math.max(d.nextSeq, firstSeq());
    while (d.nextSeq <= lastSeq) {
      const message = find(d.nextSeq);
      d.nextSeq++;
      if (message && matches(d, message.subject)) {
        const entry: Outstanding = { seq: message.seq, deliveries: 0, dueAt: now, inFlight: false };
        d.outstanding.set(message.seq, entry);
        return { message, entry };
      }
    }
    return { waitMs };
  }

  async function deliver(d: Durable, message: Stored, entry: Outstanding): Promise<void> {
    entry.inFlight = true;
    entry.deliveries++;
    let settled = false;
    const retry = (delayMs: number) => {
      if (entry.deliveries >= d.opts.maxDeliver) {
        d.outstanding.delete(entry.seq);
        log.warn({ durable: d.opts.durable, subject: message.subject }, "message exhausted its deliveries");
      } else {
        entry.dueAt = Date.now() + delayMs;
      }
      wakeAll(d);
    };
    const settle = (action: () => void) => async () => {
      if (settled) return;
      settled = true;
      action();
    };
    const msg: TransportMessage = {
      subject: message.subject,
      data: message.data.slice(),
      deliveryCount: entry.deliveries,
      ack: settle(() => d.outstanding.delete(entry.seq)),
      term: settle(() => d.outstanding.delete(entry.seq)),
      nak: async (delayMs?: number) =>
        settle(() => retry(delayMs ?? backoffFor(d.opts.backoffMs, entry.deliveries)))(),
    };
    try {
      await d.opts.handler(msg);
    } catch (err) {
      log.warn({ err, durable: d.opts.durable, subject: message.subject }, "handler failed");
    } finally {
      entry.inFlight = false;
      if (!settled) {
        settled = true;
        retry(backoffFor(d.opts.backoffMs, entry.deliveries));
      } else if (d.outstanding.has(entry.seq)) {
        // nak-ed while in flight: the pump, woken then, passed over it; it may be due now or later
        wakeAll(d);
      }
    }
  }

  return {
    kind: "memory",

    async publish(subject, msgId, data) {
      if (closed) throw new Error("event bus is closed");
      const now = Date.now();
      for (const [id, at] of seen) {
        if (now - at < duplicateWindowMs) break;
        seen.delete(id);
      }
      if (seen.has(msgId)) return;
      seen.set(msgId, now);
      messages.push({ seq: ++lastSeq, subject, data: data.slice() });
      if (messages.length > maxMessages) messages.splice(0, messages.length - maxMessages);
      for (const d of durables.values()) wakeAll(d);
    },

    async subscribe(opts): Promise<Subscription> {
      assertDurableName(opts.durable);
      if (closed) throw new Error("event bus is closed");
      let d = durables.get(opts.durable);
      if (d) d.opts = opts;
      else {
        d = { opts, nextSeq: firstSeq(), outstanding: new Map(), wakers: new Set() };
        durables.set(opts.durable, d);
      }
      const durable = d;
      let stopped = false;
      let wakeMine: (() => void) | undefined;

      const limit = opts.concurrency ?? 1;
      const running = new Set<Promise<void>>();
      const pump = (async () => {
        while (!stopped && !closed) {
          if (running.size >= limit) {
            await Promise.race(running);
            continue;
          }
          const next = take(durable);
          if ("message" in next) {
            const p: Promise<void> = deliver(durable, next.message, next.entry).finally(() =>
              running.delete(p),
            );
            running.add(p);
            if (limit <= 1) await p;
            continue;
          }
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, next.waitMs);
            const wake = () => {
              clearTimeout(timer);
              durable.wakers.delete(wake);
              resolve();
            };
            wakeMine = wake;
            durable.wakers.add(wake);
          });
        }
        await Promise.all(running);
      })();

      return {
        async stop() {
          stopped = true;
          wakeMine?.();
          await pump;
        },
      };
    },

    async state() {
      let bytes = 0;
      for (const m of messages) bytes += m.data.byteLength;
      const consumers = [...durables.entries()].map(([durable, d]) => ({
        durable,
        pending: undelivered(d),
        ackPending: d.outstanding.size,
        redelivered: [...d.outstanding.values()].filter((o) => o.deliveries > 1).length,
        waiting: d.wakers.size,
      }));
      return { stream: null, messages: messages.length, bytes, consumers };
    },

    async pending(durableName) {
      const d = durables.get(durableName);
      return d ? d.outstanding.size + undelivered(d) : 0;
    },

    async close() {
      closed = true;
      for (const d of durables.values()) wakeAll(d);
    },
  };
}
