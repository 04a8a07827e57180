import { randomBytes } from "node:crypto";
import { jetstreamManager } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/transport-node";
import type { PayloadOf } from "@schema/events";
import { connectPostgres, type Db } from "../db";
import { deploymentOf } from "../deployment";
import { connectNats } from "../nats";
import { jetStreamTransport } from "./jetstream";
import { memoryTransport } from "./memory";
import { emit } from "./outbox";
import { startRelay } from "./relay";
import { deleteStream, privateNats, settle, waitFor } from "./testing/bus";
import { clearOutbox, countingTransport, registerEventsWorld, takeUniqueBus } from "./testing/world";
import type { EventTransport, Subscription } from "./transport";

const world = registerEventsWorld();
let db: Db;
let nc: NatsConnection;

beforeAll(() => {
  ({ db, nc } = world);
});
beforeEach(async () => {
  await clearOutbox(db);
});

function updated(n: number): PayloadOf<"user.updated"> {
  return {
    userId: n,
    uniqueId: `U-${n}`,
    email: `user${n}@example.com`,
    firstName: "Ada",
    lastName: "Lovelace",
    changedFields: ["phone"],
    userType: "client",
    userVersion: n + 1,
  };
}

/** Collects the envelope ids arriving on the test's subjects. */
async function collect(
  transport: EventTransport,
  prefix: string,
): Promise<{ ids: string[]; sub: Subscription }> {
  const ids: string[] = [];
  const sub = await transport.subscribe({
    durable: `collector_${randomBytes(3).toString("hex")}`,
    subjects: [`${prefix}.>`],
    maxDeliver: 3,
    backoffMs: [50],
    handler: async (m) => {
      ids.push(JSON.parse(new TextDecoder().decode(m.data)).id);
      await m.ack();
    },
  });
  return { ids, sub };
}

async function commitEvents(count: number, perTransaction = 1): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += perTransaction) {
    await db.prisma.$transaction(async (tx) => {
      for (let j = i; j < Math.min(i + perTransaction, count); j++) {
        ids.push((await emit(tx, { type: "user.updated", payload: updated(j + 1) })).id);
      }
    });
  }
  return ids;
}

describe("outbox emit", () => {
  it("refuses a payload that does not match its schema, or carries a field the schema does not know", async () => {
    await expect(
      db.prisma.$transaction((tx) =>
        emit(tx, {
          type: "user.updated",
          payload: { ...updated(1), password: "Secret-123!" } as PayloadOf<"user.updated">,
        }),
      ),
    ).rejects.toThrow(/password/);
    await expect(
      db.prisma.$transaction((tx) =>
        emit(tx, { type: "user.updated", payload: { ...updated(1), email: "not-an-email" } }),
      ),
    ).rejects.toThrow(/email/);
    const [row] = await db.prisma.$queryRaw<{ count: number }[]>`
      SELECT count(*)::int AS count FROM outbox_events WHERE "publishedAt" IS NULL`;
    expect(row?.count).toBe(0);
  });

  it("writes the envelope with subject, actor and correlation id", async () => {
    const { prefix } = takeUniqueBus();
    const envelope = await db.prisma.$transaction((tx) =>
      emit(
        tx,
        { type: "user.updated", payload: updated(7) },
        { actor: { kind: "admin", userId: 3 }, correlationId: "req-1" },
      ),
    );
    const row = await db.prisma.outboxEvent.findUniqueOrThrow({ where: { id: envelope.id } });
    expect(row.subject).toBe(`${prefix}.user.updated`);
    expect(row.type).toBe("user.updated");
    expect(row.publishedAt).toBeNull();
    expect(row.envelope).toEqual({
      id: envelope.id,
      type: "user.updated",
      version: 1,
      occurredAt: envelope.occurredAt,
      actor: { kind: "admin", userId: 3 },
      correlationId: "req-1",
      payload: updated(7),
    });
    expect(envelope.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/);
  });
});

describe("outbox relay on JetStream", () => {
  let stream: string;
  let prefix: string;
  let transport: EventTransport;
  beforeEach(async () => {
    ({ stream, prefix } = takeUniqueBus());
    transport = await jetStreamTransport({ nc, stream, subjectPrefix: prefix });
  });
  afterEach(async () => {
    await transport.close();
    await deleteStream(nc, stream);
  });

  it("publishes each committed event exactly once, woken by the commit", async () => {
    const { ids, sub } = await collect(transport, prefix);
    // a long poll: only the NOTIFY of the commit can wake the relay in time
    const relay = await startRelay({ db, transport, pollMs: 60_000, batchSize: 7 });
    try {
      const emitted = await commitEvents(30, 3);
      await waitFor(() => ids.length >= 30, "30 events", 10_000);
      await settle();
      expect(ids).toEqual(emitted);
      expect(await relay.backlog()).toBe(0);
      const rows = await db.prisma.outboxEvent.findMany({ where: { id: { in: emitted } } });
      expect(
        rows.every((r) => r.publishedAt !== null && r.publishAttempts === 1 && r.lastError === null),
      ).toBe(true);
    } finally {
      await relay.stop();
      await sub.stop();
    }
  });

  it("publishes nothing for a rolled-back transaction", async () => {
    const { ids, sub } = await collect(transport, prefix);
    const relay = await startRelay({ db, transport, pollMs: 100 });
    try {
      await expect(
        db.prisma.$transaction(async (tx) => {
          await emit(tx, { type: "user.updated", payload: updated(1) });
          throw new Error("the change failed");
        }),
      ).rejects.toThrow("the change failed");
      const [kept] = await commitEvents(1);
      await relay.drain();
      await waitFor(() => ids.length >= 1, "the committed event");
      await settle(400);
      expect(ids).toEqual([kept]);
    } finally {
      await relay.stop();
      await sub.stop();
    }
  });

  it("never publishes a row twice when two relays run at once", async () => {
    const second = await eventsDatabaseConnection();
    const counting = countingTransport(transport);
    const { ids, sub } = await collect(transport, prefix);
    const emitted = await commitEvents(120, 10);
    const relays = await Promise.all([
      startRelay({ db, transport: counting.transport, batchSize: 5, pollMs: 50 }),
      startRelay({ db: second, transport: counting.transport, batchSize: 5, pollMs: 50 }),
    ]);
    try {
      await Promise.all([relays[0]?.drain(), relays[1]?.drain(), relays[0]?.drain()]);
      await waitFor(async () => (await relays[0]?.backlog()) === 0, "empty backlog");
      await waitFor(() => ids.length >= 120, "120 events", 10_000);
      await settle();
      expect([...counting.counts.keys()].sort()).toEqual([...emitted].sort());
      expect([...counting.counts.values()].every((n) => n === 1)).toBe(true);
      expect(ids).toHaveLength(120);
    } finally {
      await Promise.all(relays.map((r) => r?.stop()));
      await sub.stop();
      await second.close();
    }
  });
});

function eventsDatabaseConnection(): Promise<Db> {
  return connectPostgres(world.url);
}

describe("outbox relay while NATS is down", () => {
  it("delivers every event written during the outage once NATS is back, each once", async () => {
    const nats = await privateNats();
    await nats.start();
    const privateNc = await connectNats(nats.url, { reconnectTimeWaitMs: 100 });
    const { stream, prefix } = takeUniqueBus();
    const transport = await jetStreamTransport({
      nc: privateNc,
      stream,
      subjectPrefix: prefix,
      publishTimeoutMs: 500,
    });
    const relay = await startRelay({ db, transport, pollMs: 100, maxBackoffMs: 300 });
    const { ids, sub } = await collect(transport, prefix);
    try {
      const before = await commitEvents(2);
      await waitFor(() => ids.length >= 2, "events before the outage");

      await nats.stop();
      const during = await commitEvents(10, 2);
      await waitFor(
        async () =>
          (await db.prisma.outboxEvent.count({ where: { id: { in: during }, lastError: { not: null } } })) >
          0,
        "a failed publish attempt",
      );
      expect(await relay.backlog()).toBe(10);

      await nats.start();
      await waitFor(() => new Set(ids).size >= 12, "all events after NATS came back", 20_000);
      await settle(500);
      // the killed server may deliver an event again whose ack it had not yet stored (consumers'
      // inboxes absorb that); what matters here is that the stream got each event exactly once
      expect([...new Set(ids)]).toEqual([...before, ...during]);
      const info = await (await jetstreamManager(privateNc)).streams.info(stream);
      expect(info.state.messages).toBe(12);
      expect(await relay.backlog()).toBe(0);
    } finally {
      await relay.stop();
      await sub.stop();
      await transport.close();
      await privateNc.close();
      await nats.destroy();
    }
  }, 40_000);
});

describe("outbox relay and the deployment", () => {
  it("stamps its deployment on every envelope and publishes on its own prefix, old rows included", async () => {
    const { prefix } = takeUniqueBus();
    const [id] = await commitEvents(1);
    // a row written before envelopes carried a deployment, under another prefix
    await db.prisma.$executeRaw`
      UPDATE outbox_events SET subject = 'portal.user.updated', envelope = envelope - 'deployment'
      WHERE id = ${id}::uuid`;
    const transport = memoryTransport();
    const received: { subject: string; envelope: Record<string, unknown> }[] = [];
    const sub = await transport.subscribe({
      durable: "stamp_reader",
      subjects: [`${prefix}.>`, "portal.>"],
      maxDeliver: 3,
      backoffMs: [50],
      handler: async (m) => {
        received.push({ subject: m.subject, envelope: JSON.parse(new TextDecoder().decode(m.data)) });
        await m.ack();
      },
    });
    const relay = await startRelay({ db, transport, pollMs: 60_000 });
    try {
      await relay.drain();
      await waitFor(() => received.length >= 1, "the event");
      await settle(100);
      const own = (await deploymentOf(db)).id;
      expect(own).toMatch(/^[0-9a-f]{10}$/);
      expect(received).toEqual([
        { subject: `${prefix}.user.updated`, envelope: expect.objectContaining({ id, deployment: own }) },
      ]);
      // the row itself is left as it was written
      const row = await db.prisma.outboxEvent.findUniqueOrThrow({ where: { id } });
      expect(row.envelope).not.toHaveProperty("deployment");
    } finally {
      await relay.stop();
      await sub.stop();
      await transport.close();
    }
  });
});

describe("outbox relay on the in-process bus", () => {
  it("publishes recent events again after a restart, since the bus kept nothing", async () => {
    const { prefix } = takeUniqueBus();
    // earlier tests' rows (the relay publishes every row on its own prefix) are older than the window
    await db.prisma.$executeRaw`
      UPDATE outbox_events SET "publishedAt" = now() - interval '1 hour' WHERE "publishedAt" IS NOT NULL`;
    const before = memoryTransport();
    const first = await startRelay({ db, transport: before, pollMs: 60_000 });
    const emitted = await commitEvents(3);
    await first.drain();
    await first.stop();
    await before.close();

    const after = memoryTransport();
    const { ids, sub } = await collect(after, prefix);
    const relay = await startRelay({
      db,
      transport: after,
      pollMs: 60_000,
      republishSince: new Date(Date.now() - 60_000),
    });
    try {
      await relay.drain();
      await waitFor(() => ids.length >= 3, "the recent events");
      expect(ids).toEqual(emitted);
    } finally {
      await relay.stop();
      await sub.stop();
    }
  });
});

describe("outbox relay when publishes of a batch fail", () => {
  /** Relays six events of one transaction through a bus whose publishes numbered in `failing` fail. */
  async function relayThrough(
    failing: (call: number) => boolean,
  ): Promise<{ emitted: string[]; ids: string[] }> {
    const { prefix } = takeUniqueBus();
    await db.prisma.$executeRaw`UPDATE outbox_events SET "publishedAt" = now() WHERE "publishedAt" IS NULL`;
    const bus = memoryTransport();
    const { ids, sub } = await collect(bus, prefix);
    let calls = 0;
    const flaky: EventTransport = {
      ...bus,
      async publish(subject, msgId, data) {
        calls += 1;
        if (failing(calls)) throw new Error("publish timed out");
        await bus.publish(subject, msgId, data);
      },
    };
    const emitted = await commitEvents(6, 6);
    const relay = await startRelay({ db, transport: flaky, pollMs: 60_000, maxBackoffMs: 50 });
    try {
      await waitFor(() => ids.length >= 6, "the six events");
      await settle(100);
      const rows = await db.prisma.$queryRaw<{ n: number }[]>`
        SELECT count(*)::int AS n FROM outbox_events WHERE "publishedAt" IS NULL`;
      expect(rows[0]?.n).toBe(0);
      return { emitted, ids: [...ids] };
    } finally {
      await relay.stop();
      await sub.stop();
      await bus.close();
    }
  }

  it("keeps the outbox's order when the bus goes away in the middle of a batch", async () => {
    // the connection drops at the third publish of the first batch: it and all after it fail
    const { emitted, ids } = await relayThrough((call) => call >= 3 && call <= 6);
    expect(ids).toEqual(emitted);
  });

  it("delivers each event once when the bus refuses one event of a batch and takes the later ones", async () => {
    // events 4–6 reach the bus in the first batch and go again after the refused third, where the
    // bus's dedupe (the event id is the message id) drops them
    const { emitted, ids } = await relayThrough((call) => call === 3);
    expect(ids).toHaveLength(6);
    expect(new Set(ids)).toEqual(new Set(emitted));
  });

  it("stops at once when a publish out as it stops fails: no wait for a retry that will not come", async () => {
    await db.prisma.$executeRaw`UPDATE outbox_events SET "publishedAt" = now() WHERE "publishedAt" IS NULL`;
    const bus = memoryTransport();
    let fail: ((err: Error) => void) | undefined;
    let sending: (() => void) | undefined;
    const sent = new Promise<void>((resolve) => {
      sending = resolve;
    });
    // a bus that answers no publish until the test says so (NATS gone in the middle of a batch)
    const stalled: EventTransport = {
      ...bus,
      publish: () =>
        new Promise<void>((_, reject) => {
          fail = reject;
          sending?.();
        }),
    };
    await commitEvents(1);
    const relay = await startRelay({
      db,
      transport: stalled,
      pollMs: 60_000,
      backoffMs: 60_000,
      maxBackoffMs: 60_000,
    });
    try {
      await sent;
      const started = Date.now();
      const stopped = relay.stop();
      fail?.(new Error("publish timed out"));
      await stopped;
      // the minute's backoff after the failed batch is not waited out
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await relay.stop();
      await bus.close();
    }
  }, 15_000);
});
