import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import type { NatsConnection } from "@nats-io/transport-node";
import { USER_SYNC_TYPE } from "@schema/esrt/contract";
import { createEndpoint } from "@services/esrt-sync";
import { connectPostgres, type Db } from "@services/shared/db";
import { jetStreamTransport, startRelay } from "@services/shared/events";
import { connectNats } from "@services/shared/nats";
import { freePort } from "@services/shared/net";
import { createAdmin, createUser } from "@services/shared/testing/factories";
import { changeAccessLevel } from "@services/user";
import { deployedNodeArgs, type ServerProcess, startServer } from "./load";
import {
  applyBenchConfig,
  type BenchReport,
  deleteStream,
  latencyMetrics,
  runDatabase,
  startBenchRun,
  waitUntil,
} from "./support";

// Pro-app sync (issue 10): user changes delivered by webhook to the Pro-app simulator, through the
// whole pipeline laid out as in production (docker-compose.yml): this process is the gateway's part
// (the user's change and its event in one transaction, and the outbox relay to JetStream); the
// esrt-sync worker (services/worker.ts esrt-sync: the sync consumer making the state and the
// delivery, and the dispatcher) and the user worker (services/worker.ts user: esrtSynced from the
// sync service's reports) run in processes of their own, and the Pro app is `make pro-app`
// (scripts/proApp.ts), which verifies each signature with the standardwebhooks library and answers
// 204, the acknowledgement.
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

/** What the simulator says of itself (GET /). */
interface SimulatorState {
  received: number;
}

/** One webhook the simulator received (GET /received), as far as this benchmark reads it. */
interface Received {
  id: string;
  type: string;
  uniqueId: string | null;
  receivedAt: string;
}

/** The machine's CPU time so far (all cores), busy and in all, in clock ticks (from /proc/stat). */
function machineCpu(): { busy: number; total: number } {
  const line = readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "";
  const ticks = line.trim().split(/\s+/).slice(1).map(Number);
  const total = ticks.reduce((a, b) => a + b, 0);
  const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
  return { busy: total - idle, total };
}

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  return (await res.json()) as T;
}

export async function run(): Promise<BenchReport> {
  const benchRun = await startBenchRun();
  const { services, id, bus, cleanup } = benchRun;
  try {
    const database = await runDatabase(benchRun);
    const env: Record<string, string> = {
      NODE_ENV: "production",
      DATABASE_URL: database.url,
      REDIS_URL: services.redisUrl,
      REDIS_PREFIX: `bench:${id}:`,
      NATS_URL: services.natsUrl,
      EVENT_STREAM: bus.stream,
      SUBJECT_PREFIX: bus.prefix,
      SESSION_SECRET: `bench-session-secret-${id}-0123456789abcdef`,
      PRO_APP_URL: "https://pro.esrt.example",
      // webhooks only (the NATS channel is measured by its own tests), to a receiver on this machine
      ESRT_NATS: "0",
      ESRT_ALLOW_HTTP: "1",
      ESRT_ALLOW_PRIVATE: "1",
      ESRT_DISPATCH_CONCURRENCY: "16",
    };
    applyBenchConfig(env);
    const db = await connectPostgres(database.url);
    cleanup.defer("close database", () => db.close());
    const nc: NatsConnection = await connectNats(services.natsUrl, { name: `portal-bench-${id}` });
    cleanup.defer("close NATS", () => nc.close());
    const transport = await jetStreamTransport({ nc, stream: bus.stream, subjectPrefix: bus.prefix });
    cleanup.defer(`delete stream ${bus.stream}`, () => deleteStream(nc, bus.stream));
    cleanup.defer("close transport", () => transport.close());
    const relay = await startRelay({ db, transport, subjectPrefix: bus.prefix });
    cleanup.defer("stop relay", () => relay.stop());

    const admin = await createAdmin(db);
    const port = await freePort();
    const { secret } = await createEndpoint({
      db,
      actorId: admin.id,
      url: `http://127.0.0.1:${port}/webhooks`,
    });
    const processes: ServerProcess[] = [];
    const proApp = await startServer({
      name: "pro-app",
      script: "scripts/proApp.ts",
      env: { PRO_APP_SECRET: secret, PRO_APP_PORT: String(port) },
      port,
      readyPath: "/",
    });
    cleanup.defer("stop the Pro-app simulator", () => proApp.stop());
    processes.push(proApp);
    for (const worker of ["user", "esrt-sync"]) {
      const started = await startServer({
        name: `${worker} worker`,
        script: "services/worker.ts",
        // info, so that "worker started" shows; nothing is logged per event at info
        env: { ...env, LOG_LEVEL: "info", WORKERS: worker, RELAY: "0" },
        readyLine: /worker started/,
        nodeArgs: deployedNodeArgs(),
      });
      cleanup.defer(`stop the ${worker} worker`, () => started.stop());
      processes.push(started);
    }
    const receivedCount = async () => (await getJson<SimulatorState>(`${proApp.url}/`)).received;
    const receivedList = () => getJson<Received[]>(`${proApp.url}/received`);

    const users = await makeUsers(db, CHANGES + PACED_CHANGES);
    const actor = { id: admin.id, userType: "mainAdmin" as const };
    const change = (userId: number) => changeAccessLevel({ db, actor, userId, accessLevel: "full" });
    const cpuOf = () => [process.cpuUsage(), ...processes.map((p) => p.cpuMs())] as const;

    // burst
    const burstUsers = users.slice(0, CHANGES);
    const started = performance.now();
    const writers = 8;
    let next = 0;
    await Promise.all(
      Array.from({ length: writers }, async () => {
        while (next < burstUsers.length) {
          const user = burstUsers[next++];
          if (user) await change(user.id);
        }
      }),
    );
    const committed = performance.now();
    let burstReceived = 0;
    await waitUntil(
      () => burstReceived >= CHANGES,
      () => `${burstReceived} of ${CHANGES} received`,
      300_000,
      async () => {
        burstReceived = await receivedCount();
      },
    );
    const burstMs = performance.now() - started;

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
    burstReceived = await receivedCount();
    // what autovacuum does in a deployment (it is off on this machine's PostgreSQL): the burst's
    // dead rows (each delivery, event and user row written two or three times) are reclaimed and
    // the statistics refreshed before the paced run
    await db.prisma.$executeRawUnsafe(
      "VACUUM (ANALYZE) users, outbox_events, processed_events, esrt_deliveries, esrt_delivery_attempts, esrt_user_states, audit_logs",
    );

    // paced
    const pacedUsers = users.slice(CHANGES);
    const commitAt = new Map<string, number>();
    const cpuBefore = cpuOf();
    const machineBefore = machineCpu();
    const pacedStart = performance.now();
    const pacedFrom = new Date();
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
    let pacedReceived = 0;
    await waitUntil(
      () => pacedReceived >= PACED_CHANGES,
      () => `${pacedReceived} of ${PACED_CHANGES} received`,
      120_000,
      async () => {
        pacedReceived = (await receivedCount()) - burstReceived;
      },
    );
    const cpuAfter = cpuOf();
    const machineAfter = machineCpu();
    const received = await receivedList();
    const ids = new Set(received.map((r) => r.id));
    const latencies: number[] = [];
    const receiptOf = new Map<string, number>();
    for (const r of received.slice(burstReceived)) {
      if (r.type !== USER_SYNC_TYPE || !r.uniqueId) continue;
      const at = commitAt.get(r.uniqueId);
      const receipt = Date.parse(r.receivedAt);
      receiptOf.set(r.uniqueId, receipt);
      if (at !== undefined) latencies.push(receipt - at);
    }
    // where the time goes: the event's way to the sync service (commit → delivery made; of which the
    // relay's part, the event written → published), then the dispatcher's (delivery made → receipt)
    const made = await db.prisma.esrtDelivery.findMany({
      where: { uniqueId: { in: pacedUsers.map((u) => u.uniqueId) } },
      select: { uniqueId: true, createdAt: true },
    });
    const toMade: number[] = [];
    const toReceipt: number[] = [];
    for (const d of made) {
      const at = d.uniqueId ? commitAt.get(d.uniqueId) : undefined;
      const receipt = d.uniqueId ? receiptOf.get(d.uniqueId) : undefined;
      if (at !== undefined) toMade.push(d.createdAt.getTime() - at);
      if (receipt !== undefined) toReceipt.push(receipt - d.createdAt.getTime());
    }
    const relayed = await db.prisma.$queryRaw<{ ms: number }[]>`
      SELECT (extract(epoch FROM "publishedAt" - "createdAt") * 1000)::float8 AS ms FROM outbox_events
      WHERE type = 'user.updated' AND "createdAt" >= ${pacedFrom} AND "publishedAt" IS NOT NULL`;
    // the paced run's CPU per change in each process (ms)
    const [ownBefore, ...othersBefore] = cpuBefore;
    const [ownAfter, ...othersAfter] = cpuAfter;
    const ownCpuMs = (ownAfter.user + ownAfter.system - ownBefore.user - ownBefore.system) / 1000;
    const perChange = (ms: number) => Math.round((ms / PACED_CHANGES) * 100) / 100;
    const cpuMetrics = [
      { name: "CPU per change: gateway part (this process)", unit: "ms", value: perChange(ownCpuMs) },
      ...processes.map((p, i) => ({
        name: `CPU per change: ${p.name}`,
        unit: "ms",
        value: perChange((othersAfter[i] ?? 0) - (othersBefore[i] ?? 0)),
      })),
      {
        name: "machine CPU busy (all processes, PostgreSQL and NATS included)",
        unit: "%",
        value: Math.round(
          ((machineAfter.busy - machineBefore.busy) * 100) /
            Math.max(1, machineAfter.total - machineBefore.total),
        ),
      },
    ];
    // the last acknowledgements reach esrtSynced
    const total = CHANGES + PACED_CHANGES;
    let synced = 0;
    const syncDeadline = Date.now() + 60_000;
    while (synced < total && Date.now() < syncDeadline) {
      synced = await db.prisma.user.count({
        where: { esrtSynced: true, username: { startsWith: "bench_" } },
      });
      if (synced < total) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return {
      name: "Pro-app sync: user changes to a webhook receiver",
      notes: [
        "laid out as in production: the change + its event (outbox) and the relay here (the gateway's part); the esrt-sync worker (sync consumer, dispatcher with 16 in flight) and the user worker (esrtSynced) in processes of their own; the Pro-app simulator (make pro-app) verifying each signature and answering 204",
        `burst: ${CHANGES} changes of ${CHANGES} users from ${writers} writers; paced: ${PACED_CHANGES} changes at ${PACED_RATE}/s, latency from each change's commit to its receipt`,
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
            { name: "lost", unit: "", value: CHANGES - Math.min(burstReceived, CHANGES) },
          ],
        },
        {
          name: `paced ${PACED_RATE}/s`,
          metrics: [
            ...latencyMetrics("commit to receipt", latencies),
            ...latencyMetrics("commit to delivery made", toMade),
            ...latencyMetrics(
              "of which commit to published",
              relayed.map((r) => r.ms),
            ),
            ...latencyMetrics("delivery made to receipt", toReceipt),
            ...cpuMetrics,
            { name: "lost", unit: "", value: PACED_CHANGES - latencies.length },
          ],
        },
        {
          name: "both",
          metrics: [
            { name: "received", unit: "", value: received.length },
            { name: "duplicates", unit: "", value: received.length - ids.size },
            { name: "users esrtSynced", unit: "", value: synced },
            { name: "of users changed", unit: "", value: total },
          ],
        },
      ],
    };
  } finally {
    await cleanup.run();
  }
}
