import { performance } from "node:perf_hooks";
import type { NatsConnection } from "@nats-io/transport-node";
import type { PayloadOf } from "@schema/events";
import { connectPostgres, type Db } from "@services/shared/db";
import {
  defineConsumer,
  type EventTransport,
  emit,
  jetStreamTransport,
  memoryTransport,
  startConsumers,
  startRelay,
} from "@services/shared/events";
import { connectNats } from "@services/shared/nats";
import {
  applyBenchConfig,
  type BenchReport,
  deleteStream,
  latencyMetrics,
  purgeStream,
  rssMiB,
  rssPeak,
  runDatabase,
  type Scenario,
  startBenchRun,
  waitUntil,
} from "./support";

// End-to-end throughput and latency of the event backbone on the real services: producers emit
// user.notes_updated events through the transactional outbox, one relay publishes them, one
// consumer (with its inbox transaction) handles them. Everything runs in this one process, so the
// figures include the producers, relay and consumer sharing one event loop.

/** Events per measured scenario. */
export const EVENTS = 2000;
/** Events emitted per transaction. */
export const PER_TRANSACTION = 10;
/** Transactions in flight at once (concurrent producers). */
export const PRODUCERS = 4;
/** Events of the paced (unsaturated) latency runs. */
export const PACED_EVENTS = 500;
/** Rate of the paced runs, well under the pipeline's capacity, so latency is not queueing. */
export const PACED_RATE = 200;
/** Events of the unmeasured warm-up run. */
const WARM_UP_EVENTS = 200;
/** Longest a scenario may take before the benchmark fails. */
const SCENARIO_TIMEOUT_MS = 45_000;

function payload(n: number): PayloadOf<"user.notes_updated"> {
  return {
    userId: 1 + (n % 50),
    uniqueId: `U-${1 + (n % 50)}`,
    email: `client${n % 50}@example.com`,
    firstName: "Ada",
    lastName: "Lovelace",
    username: `client${n % 50}`,
    companyName: null,
    noteHistoryId: n + 1,
    notes: `Benchmark note ${n}: called about the March statement, will pay by the end of the month.`,
    wordCount: 16,
  };
}

interface PipelineRun {
  events: number;
  /** commit time (performance.now) of each event, by event id */
  committed: Map<string, number>;
  /** time the consumer's handler first saw each event, by event id */
  handled: Map<string, number>;
  rssStart: number;
  rssEnd: number;
  rssPeak: number;
}

interface Load {
  events: number;
  /** events per second to emit at, one producer; unset: PRODUCERS producers as fast as they can */
  rate?: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Emits events, relays them over `transport` and waits until one consumer handled them all. */
async function pipeline(db: Db, transport: EventTransport, consumerName: string, load: Load) {
  const { events, rate } = load;
  const committed = new Map<string, number>();
  const handled = new Map<string, number>();
  const rssStart = rssMiB();
  const peak = rssPeak();
  const consumers = await startConsumers({
    db,
    transport,
    consumers: [
      defineConsumer({
        name: consumerName,
        events: ["user.notes_updated"],
        async handle(envelope) {
          if (!handled.has(envelope.id)) handled.set(envelope.id, performance.now());
        },
      }),
    ],
  });
  const relay = await startRelay({ db, transport }).catch(async (err: unknown) => {
    await consumers.stop();
    throw err;
  });
  try {
    const transactions = Math.ceil(events / PER_TRANSACTION);
    let next = 0;
    const start = performance.now();
    const producer = async (): Promise<void> => {
      for (let t = next++; t < transactions; t = next++) {
        if (rate !== undefined) await sleep(start + (t * PER_TRANSACTION * 1000) / rate - performance.now());
        const ids = await db.prisma.$transaction(async (tx) => {
          const out: string[] = [];
          for (let k = 0; k < PER_TRANSACTION && t * PER_TRANSACTION + k < events; k++) {
            const envelope = await emit(
              tx,
              { type: "user.notes_updated", payload: payload(t * PER_TRANSACTION + k) },
              { actor: { kind: "system" } },
            );
            out.push(envelope.id);
          }
          return out;
        });
        const at = performance.now();
        for (const id of ids) committed.set(id, at);
      }
    };
    await Promise.all(Array.from({ length: rate === undefined ? PRODUCERS : 1 }, producer));
    let missing = [...committed.keys()];
    await waitUntil(
      () => {
        missing = missing.filter((eventId) => !handled.has(eventId));
        return missing.length === 0;
      },
      () => `${events} events handled (${missing.length} missing)`,
      SCENARIO_TIMEOUT_MS,
    );
  } finally {
    await relay.stop();
    await consumers.stop();
  }
  const run: PipelineRun = { events, committed, handled, rssStart, rssEnd: rssMiB(), rssPeak: peak.stop() };
  return run;
}

function scenario(name: string, run: PipelineRun): Scenario {
  const commits = [...run.committed.values()];
  const firstCommit = Math.min(...commits);
  const lastCommit = Math.max(...commits);
  let lastHandled = Number.NaN;
  const latencies: number[] = [];
  for (const [id, at] of run.committed) {
    const seen = run.handled.get(id);
    if (seen === undefined) continue;
    latencies.push(seen - at);
    lastHandled = Number.isNaN(lastHandled) ? seen : Math.max(lastHandled, seen);
  }
  return {
    name,
    metrics: [
      { name: "events", unit: "", value: run.events },
      { name: "throughput", unit: "events/s", value: run.events / ((lastHandled - firstCommit) / 1000) },
      { name: "emit rate", unit: "events/s", value: run.events / ((lastCommit - firstCommit) / 1000) },
      ...latencyMetrics("commit→handled", latencies),
      { name: "RSS delta", unit: "MiB", value: run.rssEnd - run.rssStart },
      { name: "RSS peak delta", unit: "MiB", value: run.rssPeak - run.rssStart },
    ],
  };
}

/**
 * Measures the event backbone: EVENTS events emitted in transactions of PER_TRANSACTION by
 * PRODUCERS concurrent producers, relayed by one relay and handled by one consumer, over JetStream
 * and over the in-process bus; then, on each bus, PACED_EVENTS events at PACED_RATE events/s for
 * the latency of an unsaturated pipeline. Uses a scratch database, stream and subject prefix of its own and
 * removes them afterwards.
 * @throws when a backing service is missing or a scenario does not finish in time.
 */
export async function run(): Promise<BenchReport> {
  const benchRun = await startBenchRun();
  const { services, id, bus, cleanup } = benchRun;
  try {
    const database = await runDatabase(benchRun);
    applyBenchConfig({
      DATABASE_URL: database.url,
      NATS_URL: services.natsUrl,
      EVENT_STREAM: bus.stream,
      SUBJECT_PREFIX: bus.prefix,
    });
    const db = await connectPostgres(database.url);
    cleanup.defer("close database", () => db.close());

    // warm-up (not measured): JIT, Prisma and the pool's connections
    const warmBus = memoryTransport();
    await pipeline(db, warmBus, "bench_warm_up", { events: WARM_UP_EVENTS });
    await warmBus.close();

    const paced: Load = { events: PACED_EVENTS, rate: PACED_RATE };
    const nc: NatsConnection = await connectNats(services.natsUrl, { name: `portal-bench-${id}` });
    cleanup.defer("close NATS", () => nc.close());
    const js = await jetStreamTransport({ nc, stream: bus.stream, subjectPrefix: bus.prefix });
    cleanup.defer(`delete stream ${bus.stream}`, () => deleteStream(nc, bus.stream));
    cleanup.defer("close JetStream transport", () => js.close());
    const overJetStream = await pipeline(db, js, "bench_jetstream", { events: EVENTS });
    await purgeStream(nc, bus.stream);
    const pacedJetStream = await pipeline(db, js, "bench_jetstream_paced", paced);

    const memory = memoryTransport();
    cleanup.defer("close memory transport", () => memory.close());
    const overMemory = await pipeline(db, memory, "bench_memory", { events: EVENTS });
    const pacedBus = memoryTransport();
    cleanup.defer("close paced memory transport", () => pacedBus.close());
    const pacedMemory = await pipeline(db, pacedBus, "bench_memory_paced", paced);

    return {
      name: "event pipeline",
      notes: [
        `${EVENTS} user.notes_updated events, ${PER_TRANSACTION} per transaction, ${PRODUCERS} concurrent producers; ` +
          `one relay, one consumer; "@${PACED_RATE}/s" rows: ${PACED_EVENTS} events from one producer paced ` +
          `at ${PACED_RATE} events/s (latency without queueing); producers, relay and consumer share this process.`,
        "throughput: events / (first commit → last handled); emit rate: events / (first → last commit); " +
          "commit→handled: transaction resolved → consumer handler ran; RSS deltas are without a forced GC.",
      ],
      scenarios: [
        scenario("jetstream", overJetStream),
        scenario(`jetstream @${PACED_RATE}/s`, pacedJetStream),
        scenario("memory", overMemory),
        scenario(`memory @${PACED_RATE}/s`, pacedMemory),
      ],
    };
  } finally {
    await cleanup.run();
  }
}
