import { performance } from "node:perf_hooks";
import type { NatsConnection } from "@nats-io/transport-node";
import { USER_SYNC_TYPE, type UserSyncPayload } from "../schema/esrt/contract";
import { userSnapshotsConsumer } from "../services/esrt-sync/consumers/userSnapshots";
import { startDispatcher } from "../services/esrt-sync/dispatcher";
import { createEndpoint } from "../services/esrt-sync/endpoints";
import { testReceiver } from "../services/esrt-sync/testing";
import { connectPostgres, type Db } from "../services/shared/db";
import { jetStreamTransport, startConsumers, startRelay } from "../services/shared/events";
import { connectNats } from "../services/shared/nats";
import { createAdmin, createUser } from "../services/shared/testing/factories";
import { changeAccessLevel } from "../services/user/changeAccessLevel";
import { esrtSyncStateConsumer } from "../services/user/consumers/esrtSyncState";
import {
  applyBenchConfig,
  type BenchReport,
  benchBus,
  benchId,
  benchServices,
  deleteStream,
  latencyMetrics,
  scratchDatabase,
  teardown,
  waitUntil,
} from "./support";

// Pro-app sync (issue 10): user changes delivered by webhook to a local receiver (which verifies each
// signature with the standardwebhooks library), through the whole pipeline: the user's change and
// its event in one transaction, the relay, JetStream, the sync consumer (state and delivery), the
// dispatcher, the receiver's 2xx, and the acknowledgement. Everything runs in this process.
// Burst: 10,000 changes (each a different user) as fast as they commit: deliveries per second.
// Paced: changes at 100 a second: time from each change's commit to its receipt (goal p99 ≤ 250 ms).

/** Changes of the burst (ESRT_BENCH_CHANGES overrides, for a quick look). */
export const CHANGES = Number(process.env.ESRT_BENCH_CHANGES ?? 10_000);
export const PACED_RATE = 100;
export const PACED_CHANGES = Number(process.env.ESRT_BENCH_PACED ?? 2_000);

async function makeUsers(db: Db, count: number): Promise<{ id: number; uniqueId: string }[]> {
  const template = await createUser(db, { userType: "client" });
  await db.prisma.$executeRaw`
    INSERT INTO users ("uniqueId", username, email, password, "firstName", "lastName", "userType", "emailVerified")
    SELECT 'B' || g || '-' || ${template.uniqueId}, 'bench_' || g || '_' || ${template.id}, 'bench' || g || '_' || ${template.id} || '@example.test',
           ${template.password}, 'Bench', 'User ' || g, 'client', true
    FROM generate_series(1, ${count}) AS g`;
  return db.prisma.user.findMany({
    where: { username: { startsWith: "bench_" } },
    select: { id: true, uniqueId: true },
    orderBy: { id: "asc" },
  });
}

export async function run(): Promise<BenchReport> {
  const services = await benchServices();
  const id = benchId();
  const bus = benchBus(id);
  const cleanup = teardown();
  try {
    const database = await scratchDatabase(services.databaseUrl, id);
    cleanup.defer(`drop database ${database.name}`, () => database.drop());
    applyBenchConfig({
      DATABASE_URL: database.url,
      NATS_URL: services.natsUrl,
      EVENT_STREAM: bus.stream,
      SUBJECT_PREFIX: bus.prefix,
      ESRT_NATS: "0",
      ESRT_ALLOW_HTTP: "1",
      ESRT_ALLOW_PRIVATE: "1",
      ESRT_DISPATCH_CONCURRENCY: "16",
    });
    const db = await connectPostgres(database.url);
    cleanup.defer("close database", () => db.close());
    const nc: NatsConnection = await connectNats(services.natsUrl, { name: `portal-bench-${id}` });
    cleanup.defer("close NATS", () => nc.close());
    const transport = await jetStreamTransport({ nc, stream: bus.stream, subjectPrefix: bus.prefix });
    cleanup.defer(`delete stream ${bus.stream}`, () => deleteStream(nc, bus.stream));
    cleanup.defer("close transport", () => transport.close());
    const relay = await startRelay({ db, transport, subjectPrefix: bus.prefix });
    cleanup.defer("stop relay", () => relay.stop());
    const consumers = await startConsumers({
      db,
      transport,
      consumers: [userSnapshotsConsumer, esrtSyncStateConsumer],
      subjectPrefix: bus.prefix,
    });
    cleanup.defer("stop consumers", () => consumers.stop());

    let secret = "";
    const receiver = await testReceiver(() => secret);
    cleanup.defer("close receiver", () => receiver.close());
    const admin = await createAdmin(db);
    secret = (await createEndpoint({ db, actorId: admin.id, url: receiver.url })).secret;
    const dispatcher = await startDispatcher({ db });
    cleanup.defer("stop dispatcher", () => dispatcher.stop());

    const users = await makeUsers(db, CHANGES + PACED_CHANGES);
    const actor = { id: admin.id, userType: "mainAdmin" as const };
    const change = (userId: number) => changeAccessLevel({ db, actor, userId, accessLevel: "full" });
    const receivedOf = (from: number) =>
      receiver.received.slice(from).filter((r) => r.payload.type === USER_SYNC_TYPE).length;

    // burst
    const burstUsers = users.slice(0, CHANGES);
    const started = performance.now();
    const workers = 8;
    let next = 0;
    await Promise.all(
      Array.from({ length: workers }, async () => {
        while (next < burstUsers.length) {
          const user = burstUsers[next++];
          if (user) await change(user.id);
        }
      }),
    );
    const committed = performance.now();
    await waitUntil(
      () => receivedOf(0) >= CHANGES,
      () => `${receivedOf(0)} of ${CHANGES} received`,
      300_000,
    );
    const burstMs = performance.now() - started;
    const burstReceived = receiver.received.length;
    const ids = new Set(receiver.received.map((r) => r.id));

    // the burst's tail (acknowledgements on their way to esrtSynced) drains before the paced run, so
    // that run measures the pipeline at 100 changes/s rather than the burst's backlog
    let syncedAfterBurst = 0;
    const burstIds = burstUsers.map((u) => u.id);
    const drainDeadline = Date.now() + 300_000;
    while (syncedAfterBurst < CHANGES && Date.now() < drainDeadline) {
      syncedAfterBurst = await db.prisma.user.count({ where: { esrtSynced: true, id: { in: burstIds } } });
      if (syncedAfterBurst < CHANGES) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const burstSyncedMs = performance.now() - started;

    // paced
    const pacedUsers = users.slice(CHANGES);
    const commitAt = new Map<string, number>();
    const pacedStart = performance.now();
    const pending: Promise<unknown>[] = [];
    for (let i = 0; i < pacedUsers.length; i += 1) {
      const due = pacedStart + (i * 1000) / PACED_RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const user = pacedUsers[i];
      if (!user) continue;
      pending.push(change(user.id).then(() => commitAt.set(user.uniqueId, Date.now())));
    }
    await Promise.all(pending);
    await waitUntil(
      () => receivedOf(burstReceived) >= PACED_CHANGES,
      () => `${receivedOf(burstReceived)} of ${PACED_CHANGES} received`,
      120_000,
    );
    const latencies: number[] = [];
    for (const r of receiver.received.slice(burstReceived)) {
      const data = (r.payload as UserSyncPayload).data;
      const at = commitAt.get(data.uniqueId);
      if (at !== undefined) latencies.push(r.at - at);
    }
    // where the time goes: the event's way to the sync service (commit → delivery made), then the
    // dispatcher's (delivery made → receipt)
    const made = await db.prisma.esrtDelivery.findMany({
      where: { uniqueId: { in: pacedUsers.map((u) => u.uniqueId) } },
      select: { uniqueId: true, createdAt: true },
    });
    const toMade: number[] = [];
    const toReceipt: number[] = [];
    const receiptOf = new Map(
      receiver.received.slice(burstReceived).map((r) => [(r.payload as UserSyncPayload).data.uniqueId, r.at]),
    );
    for (const d of made) {
      const at = d.uniqueId ? commitAt.get(d.uniqueId) : undefined;
      const receipt = d.uniqueId ? receiptOf.get(d.uniqueId) : undefined;
      if (at !== undefined) toMade.push(d.createdAt.getTime() - at);
      if (receipt !== undefined) toReceipt.push(receipt - d.createdAt.getTime());
    }
    const synced = await db.prisma.user.count({
      where: { esrtSynced: true, username: { startsWith: "bench_" } },
    });
    return {
      name: "Pro-app sync: user changes to a webhook receiver",
      notes: [
        "the whole pipeline in one process: change + event (outbox), relay, JetStream, sync consumer, dispatcher (16 in flight), receiver verifying signatures, acknowledgement",
        `burst: ${CHANGES} changes of ${CHANGES} users from 8 writers; paced: ${PACED_CHANGES} changes at ${PACED_RATE}/s, latency from each change's commit to its receipt`,
        "goal: paced p99 ≤ 250 ms, nothing lost",
      ],
      scenarios: [
        {
          name: "burst",
          metrics: [
            {
              name: "changes committed per second",
              unit: "/s",
              value: Math.round((CHANGES * 1000) / (committed - started)),
            },
            { name: "deliveries per second", unit: "/s", value: Math.round((CHANGES * 1000) / burstMs) },
            { name: "all esrtSynced after", unit: "s", value: Math.round(burstSyncedMs / 100) / 10 },
            { name: "lost", unit: "", value: CHANGES - burstReceived },
            { name: "duplicates", unit: "", value: burstReceived - ids.size },
          ],
        },
        {
          name: `paced ${PACED_RATE}/s`,
          metrics: [
            ...latencyMetrics("commit to receipt", latencies),
            ...latencyMetrics("commit to delivery made", toMade),
            ...latencyMetrics("delivery made to receipt", toReceipt),
            { name: "lost", unit: "", value: PACED_CHANGES - latencies.length },
            { name: "users esrtSynced", unit: "", value: synced },
          ],
        },
      ],
    };
  } finally {
    await cleanup.run();
  }
}
