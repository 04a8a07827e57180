import type { NatsConnection } from "@nats-io/transport-node";
import { newEventId, type PayloadOf } from "@schema/events";
import { config } from "../config";
import type { Db, Tx } from "../db";
import { deploymentOf } from "../deployment";
import { connectNats } from "../nats";
import type { Consumer, ConsumerDefinition, RunningConsumers } from "./consumer";
import { defineConsumer, startConsumers } from "./consumer";
import { jetStreamTransport } from "./jetstream";
import { memoryTransport } from "./memory";
import { emit } from "./outbox";
import { startRelay } from "./relay";
import { deleteStream, settle, waitFor } from "./testing/bus";
import { clearOutbox, registerEventsWorld, takeUniqueBus } from "./testing/world";
import type { EventTransport, TransportMessage } from "./transport";

const world = registerEventsWorld();
let db: Db;
let nc: NatsConnection;

beforeAll(async () => {
  ({ db, nc } = world);
  await db.prisma.$executeRawUnsafe(
    "CREATE TABLE test_effects (consumer text NOT NULL, event_id uuid NOT NULL)",
  );
});

const uploaded = (n: number): PayloadOf<"document.uploaded"> => ({
  documentId: n,
  userId: 1,
  title: `Statement ${n}`,
  fileName: `statement-${n}.pdf`,
  fileType: "pdf",
  fileSize: 1000,
  uploadedByName: "Ada Lovelace",
  uploadedById: 1,
  fromTeam: false,
  version: 1,
});

async function effects(consumer: string): Promise<number> {
  const [row] = await db.prisma.$queryRaw<{ count: number }[]>`
    SELECT count(*)::int AS count FROM test_effects WHERE consumer = ${consumer}`;
  return row?.count ?? 0;
}

/** Records, in the handler's transaction, that consumer `name` applied the event. */
async function recordEffect(tx: Tx, name: string, eventId: string): Promise<void> {
  await tx.$executeRaw`INSERT INTO test_effects (consumer, event_id) VALUES (${name}, ${eventId}::uuid)`;
}

type UploadsHandler = ConsumerDefinition<"document.uploaded">["handle"];

/** A consumer of document.uploaded named `name`. */
function uploadsConsumer(
  name: string,
  handle: UploadsHandler,
  options: { concurrency?: number; batch?: number } = {},
): Consumer {
  return defineConsumer({ name, events: ["document.uploaded"], ...options, handle });
}

/** The transport, with every message it delivers passed through `each` before the handler. */
function tapped(inner: EventTransport, each: (msg: TransportMessage) => TransportMessage): EventTransport {
  return {
    kind: inner.kind,
    publish: (subject, msgId, data) => inner.publish(subject, msgId, data),
    subscribe: (opts) => inner.subscribe({ ...opts, handler: (m) => opts.handler(each(m)) }),
    pending: (durable) => inner.pending(durable),
    state: () => inner.state(),
    close: () => inner.close(),
  };
}

interface Kit {
  transport: EventTransport;
  /** a second process's transport on the same bus (for JetStream: its own connection) */
  otherProcess(): Promise<{ transport: EventTransport; crash(): Promise<void> }>;
  cleanup(): Promise<void>;
}

const kits: Record<"memory" | "jetstream", () => Promise<Kit>> = {
  memory: async () => {
    takeUniqueBus();
    const transport = memoryTransport();
    return {
      transport,
      otherProcess: async () => ({ transport, crash: async () => undefined }),
      cleanup: () => transport.close(),
    };
  },
  jetstream: async () => {
    const { stream, prefix } = takeUniqueBus();
    const transport = await jetStreamTransport({ nc, stream, subjectPrefix: prefix, ackWaitMs: 1000 });
    const others: NatsConnection[] = [];
    return {
      transport,
      otherProcess: async () => {
        const own = await connectNats(process.env.NATS_URL ?? "nats://127.0.0.1:4222");
        others.push(own);
        const t = await jetStreamTransport({ nc: own, stream, subjectPrefix: prefix, ackWaitMs: 1000 });
        // the process dies: its connection goes without acking or nak-ing what it holds
        return { transport: t, crash: () => own.close() };
      },
      cleanup: async () => {
        await transport.close();
        await Promise.all(others.map((o) => o.close()));
        await deleteStream(nc, stream);
      },
    };
  },
};

describe.each(["memory", "jetstream"] as const)("consumers on the %s transport", (kind) => {
  let kit: Kit;
  beforeEach(async () => {
    kit = await kits[kind]();
    await clearOutbox(db);
  });
  afterEach(async () => {
    await kit.cleanup();
  });

  async function publish(count: number): Promise<string[]> {
    const ids: string[] = [];
    await db.prisma.$transaction(async (tx) => {
      for (let n = 1; n <= count; n++)
        ids.push((await emit(tx, { type: "document.uploaded", payload: uploaded(n) })).id);
    });
    const relay = await startRelay({ db, transport: kit.transport, pollMs: 60_000 });
    await relay.drain();
    await relay.stop();
    return ids;
  }

  /** Starts the consumer on the kit's transport (or `transport`). */
  function start(
    consumer: Consumer,
    options: { backoffMs: number[]; maxDeliver?: number; transport?: EventTransport },
  ): Promise<RunningConsumers> {
    const { transport = kit.transport, ...rest } = options;
    return startConsumers({ db, transport, consumers: [consumer], ...rest });
  }

  it("applies each event once and records it in the inbox", async () => {
    const name = `docs_${kind}_once`;
    const seen: PayloadOf<"document.uploaded">[] = [];
    const running = await start(
      uploadsConsumer(name, async (envelope, tx) => {
        seen.push(envelope.payload);
        await recordEffect(tx, name, envelope.id);
      }),
      { backoffMs: [50] },
    );
    try {
      const ids = await publish(3);
      await waitFor(async () => (await effects(name)) === 3, "three effects");
      await waitFor(async () => (await running.lag())[name] === 0, "no lag");
      expect(seen.map((p) => p.title)).toEqual(["Statement 1", "Statement 2", "Statement 3"]);
      const inbox = await db.prisma.processedEvent.findMany({ where: { consumer: name } });
      expect(inbox.map((r) => r.eventId).sort()).toEqual([...ids].sort());
    } finally {
      await running.stop();
    }
  });

  it("with concurrency 4, handles up to 4 events at once, each once, and settles every one", async () => {
    const name = `docs_${kind}_concurrent`;
    let active = 0;
    let most = 0;
    // every delivery the transport hands the consumer (a message left unsettled would come again)
    let deliveries = 0;
    const counting = tapped(kit.transport, (m) => {
      deliveries += 1;
      return m;
    });
    const running = await start(
      uploadsConsumer(
        name,
        async (envelope, tx) => {
          active += 1;
          most = Math.max(most, active);
          await new Promise((resolve) => setTimeout(resolve, 50));
          await recordEffect(tx, name, envelope.id);
          active -= 1;
        },
        { concurrency: 4 },
      ),
      { backoffMs: [2000], transport: counting },
    );
    try {
      await publish(12);
      await waitFor(async () => (await effects(name)) === 12, "twelve effects");
      await waitFor(async () => (await running.lag())[name] === 0, "no lag");
      await settle(300);
      expect(await effects(name)).toBe(12);
      expect(most).toBe(4);
      // none was delivered twice: each was settled by its own handler
      expect(deliveries).toBe(12);
    } finally {
      await running.stop();
    }
  });

  it("with batch 8, applies the events waiting together in one transaction, each once", async () => {
    const name = `docs_${kind}_batch`;
    const transactions: string[] = [];
    const running = await start(
      uploadsConsumer(
        name,
        async (envelope, tx) => {
          const [row] = await tx.$queryRaw<{ id: string }[]>`SELECT txid_current()::text AS id`;
          transactions.push(row?.id ?? "");
          await recordEffect(tx, name, envelope.id);
        },
        { batch: 8 },
      ),
      { backoffMs: [50] },
    );
    try {
      const ids = await publish(24);
      await waitFor(async () => (await effects(name)) === 24, "24 effects");
      await waitFor(async () => (await running.lag())[name] === 0, "no lag");
      await settle(200);
      expect(await effects(name)).toBe(24);
      const inbox = await db.prisma.processedEvent.findMany({ where: { consumer: name } });
      expect(inbox.map((r) => r.eventId).sort()).toEqual([...ids].sort());
      // fewer transactions than events, none holding more than 8
      const perTransaction = new Map<string, number>();
      for (const t of transactions) perTransaction.set(t, (perTransaction.get(t) ?? 0) + 1);
      expect(perTransaction.size).toBeLessThan(24);
      expect(Math.max(...perTransaction.values())).toBeLessThanOrEqual(8);
    } finally {
      await running.stop();
    }
  });

  it("with batch 8, applies a batch holding a failing event one event at a time: only that one is retried", async () => {
    const name = `docs_${kind}_batch_failing`;
    const attempts = new Map<string, number>();
    const running = await start(
      uploadsConsumer(
        name,
        async (envelope, tx) => {
          attempts.set(envelope.payload.title, (attempts.get(envelope.payload.title) ?? 0) + 1);
          if (envelope.payload.documentId === 3) throw new Error("statement 3 cannot be filed");
          await recordEffect(tx, name, envelope.id);
        },
        { batch: 8 },
      ),
      { maxDeliver: 2, backoffMs: [50] },
    );
    try {
      const ids = await publish(6);
      await waitFor(async () => (await effects(name)) === 5, "five effects");
      const third = ids[2] ?? "";
      await waitFor(
        async () => (await db.prisma.deadLetter.count({ where: { consumer: name, eventId: third } })) === 1,
        "the failing event's dead letter",
      );
      await settle(200);
      expect(await effects(name)).toBe(5);
      // the failing one: its batch, then alone on each of its two deliveries
      expect(attempts.get("Statement 3")).toBeGreaterThanOrEqual(2);
      const inbox = await db.prisma.processedEvent.findMany({ where: { consumer: name } });
      expect(inbox.map((r) => r.eventId).sort()).toEqual(ids.filter((id) => id !== third).sort());
    } finally {
      await running.stop();
    }
  });

  it("applies an event exactly once when the consumer dies after its commit but before the ack", async () => {
    const name = `docs_${kind}_crash`;
    let handlerRuns = 0;
    const consumer = uploadsConsumer(name, async (envelope, tx) => {
      handlerRuns++;
      await recordEffect(tx, name, envelope.id);
    });
    const doomed = await kit.otherProcess();
    let crashed = false;
    // the first process commits the inbox row and the effect, then dies instead of acking
    const withheldAck = tapped(doomed.transport, (msg) => {
      const dying: TransportMessage = {
        ...msg,
        ack: async () => {
          crashed = true;
          await doomed.crash();
        },
      };
      return crashed ? msg : dying;
    });
    const first = await start(consumer, { backoffMs: [100], transport: withheldAck });
    const deliveries: number[] = [];
    let second: RunningConsumers | undefined;
    try {
      await publish(1);
      await waitFor(() => crashed, "the crash");
      await first.stop();
      expect(await effects(name)).toBe(1);

      // the process comes back: the event is delivered again, finds its inbox row, and is acked
      const counting = tapped(kit.transport, (msg) => {
        deliveries.push(msg.deliveryCount);
        return msg;
      });
      second = await start(consumer, { backoffMs: [100], transport: counting });
      await waitFor(() => deliveries.length >= 1, "the redelivery", 10_000);
      await waitFor(async () => (await second?.lag())?.[name] === 0, "no lag");
      await settle();
      expect(deliveries[0]).toBeGreaterThanOrEqual(2);
      expect(handlerRuns).toBe(1);
      expect(await effects(name)).toBe(1);
    } finally {
      await first.stop();
      await second?.stop();
    }
  }, 20_000);

  it("sends an event whose handler always fails to dead letters after maxDeliver attempts", async () => {
    const name = `docs_${kind}_failing`;
    const attempts: number[] = [];
    const running = await start(
      uploadsConsumer(name, async (envelope, tx) => {
        attempts.push(Date.now());
        await recordEffect(tx, name, envelope.id);
        throw new Error("mail server said no");
      }),
      { maxDeliver: 3, backoffMs: [50, 150] },
    );
    try {
      const [id] = await publish(1);
      await waitFor(
        async () => (await db.prisma.deadLetter.count({ where: { consumer: name } })) === 1,
        "a dead letter",
      );
      await settle(400);
      const letter = await db.prisma.deadLetter.findFirstOrThrow({ where: { consumer: name } });
      expect(letter).toMatchObject({
        eventId: id,
        attempts: 3,
        subject: `${config().SUBJECT_PREFIX}.document.uploaded`,
      });
      expect(letter.error).toContain("mail server said no");
      expect(attempts).toHaveLength(3);
      // the backoff was respected between attempts
      expect((attempts[2] ?? 0) - (attempts[1] ?? 0)).toBeGreaterThanOrEqual(120);
      expect(await effects(name)).toBe(0);
      expect(await db.prisma.processedEvent.count({ where: { consumer: name } })).toBe(0);
      await waitFor(async () => (await running.lag())[name] === 0, "no lag");
    } finally {
      await running.stop();
    }
  });

  it("applies only its own deployment's events and drops another's, readable or not", async () => {
    const name = `docs_${kind}_own`;
    const own = (await deploymentOf(db)).id;
    const seen: string[] = [];
    const running = await start(
      uploadsConsumer(name, async (envelope, tx) => {
        seen.push(envelope.id);
        await recordEffect(tx, name, envelope.id);
      }),
      { backoffMs: [50] },
    );
    const subject = `${config().SUBJECT_PREFIX}.document.uploaded`;
    const envelope = (extra: Record<string, unknown>) => ({
      id: newEventId(),
      type: "document.uploaded",
      version: 1,
      occurredAt: new Date().toISOString(),
      actor: null,
      correlationId: "c-1",
      payload: uploaded(1),
      ...extra,
    });
    const send = (env: { id: string }) =>
      kit.transport.publish(subject, env.id, new TextEncoder().encode(JSON.stringify(env)));
    try {
      const foreign = envelope({ deployment: "a0b1c2d3e4" });
      // a newer portal elsewhere: a version this one cannot read is still not its business
      const foreignUnreadable = envelope({ deployment: "a0b1c2d3e4", version: 99 });
      // an unstamped event (written before envelopes carried a deployment) that our outbox never held
      const strayUnstamped = envelope({});
      const ownStamped = envelope({ deployment: own });
      // an unstamped event our own outbox did write
      const [legacyId] = await db.prisma.$transaction(async (tx) => [
        (await emit(tx, { type: "document.uploaded", payload: uploaded(2) })).id,
      ]);
      await db.prisma
        .$executeRaw`UPDATE outbox_events SET "publishedAt" = now() WHERE id = ${legacyId}::uuid`;
      const legacy = await db.prisma.outboxEvent.findUniqueOrThrow({ where: { id: legacyId } });
      for (const env of [foreign, foreignUnreadable, strayUnstamped, ownStamped]) await send(env);
      await kit.transport.publish(
        subject,
        `${legacyId}`,
        new TextEncoder().encode(JSON.stringify(legacy.envelope)),
      );

      await waitFor(async () => (await effects(name)) === 2, "two effects");
      await waitFor(async () => (await running.lag())[name] === 0, "no lag");
      await settle();
      expect([...seen].sort()).toEqual([ownStamped.id, legacyId].sort());
      expect(running.dropped()).toEqual({ [name]: 3 });
      expect(await db.prisma.deadLetter.count({ where: { consumer: name } })).toBe(0);
      expect(await db.prisma.processedEvent.count({ where: { consumer: name } })).toBe(2);
    } finally {
      await running.stop();
    }
  });

  it("sends an unreadable message to dead letters at once", async () => {
    const name = `docs_${kind}_garbage`;
    let runs = 0;
    const running = await start(
      uploadsConsumer(name, async () => {
        runs++;
      }),
      { backoffMs: [50] },
    );
    try {
      const subject = `${config().SUBJECT_PREFIX}.document.uploaded`;
      await kit.transport.publish(
        subject,
        "garbage-1",
        new TextEncoder().encode('{"id":"nope","type":"document.uploaded"}'),
      );
      await waitFor(
        async () => (await db.prisma.deadLetter.count({ where: { consumer: name } })) === 1,
        "a dead letter",
      );
      const letter = await db.prisma.deadLetter.findFirstOrThrow({ where: { consumer: name } });
      expect(letter.attempts).toBe(1);
      expect(letter.error).toMatch(/invalid envelope/);
      expect(runs).toBe(0);
    } finally {
      await running.stop();
    }
  });
});
