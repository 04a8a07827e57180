import { type ChildProcess, fork, spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { NatsConnection } from "@nats-io/transport-node";
import { BUSINESS_TIME_ZONE, slotRuleViolation, slotsOfBusinessDay } from "@schema/validation/appointment";
import { bookAppointment } from "@services/appointment";
import { seed } from "@services/seed";
import { type Config, parseConfig } from "@services/shared/config";
import { connectPostgres, type Db } from "@services/shared/db";
import { jetStreamTransport, startRelay } from "@services/shared/events";
import { connectNats } from "@services/shared/nats";
import { generateUniqueId } from "@services/user";
import { DateTime } from "luxon";
import { SMTPServer } from "smtp-server";
import type { TestServices } from "../scripts/testServices";
import {
  applyBenchConfig,
  type BenchReport,
  benchBus,
  benchId,
  benchServices,
  deleteStream,
  latencyMetrics,
  quantile,
  type Scenario,
  scratchDatabase,
  teardown,
} from "./support";

// Benchmark P3 (issue 8): booking to confirmation email against an SMTP server that waits 100 ms
// before its greeting (stock smtp-server, like many relays). As deployed (docker-compose), two
// processes: this one plays the gateway, booking appointments with the booking use case at a steady
// rate and relaying the outbox to JetStream; the real email worker (`npm run worker -- email`, its
// own process) consumes appointment.scheduled, queues the client's confirmation and the team's
// notice, and its sender delivers them to a local smtp-server in a third process, as a relay would
// be on a host of its own (this file, forked with BENCH_EMAIL_SMTP_SERVER=1). PostgreSQL and NATS
// are the machine's; each run has a scratch database and a stream of its own, and starts with a few
// seconds of unmeasured bookings.
//
// The worker runs with the configuration's defaults (pooled connections, bounded concurrency), then,
// as the baseline, with the old settings: a new connection per message, one message at a time.
// BENCH_EMAIL_SECONDS (default 60) and BENCH_EMAIL_BASELINE_SECONDS (default 10) set how long each
// books for; the baseline is shorter because its queue only grows and it would take minutes to drain.

/** Bookings per second. */
export const RATE = 20;
/** Emails each booking sends: the client's confirmation and the team's notice. */
export const EMAILS_PER_BOOKING = 2;
/** Longest wait after the last booking for the last email to arrive, on top of the baseline's own. */
const DRAIN_MS = 30_000;
/** The baseline's extra wait per email it has to send (it sends about 9.5 a second). */
const BASELINE_DRAIN_PER_EMAIL_MS = 150;
/** Seconds of unmeasured bookings before the measured runs (JIT, pools, the stream's consumers). */
const WARM_UP_SECONDS = 3;
/** Bookings a slot holds here (APPOINTMENT_SLOT_CAPACITY), so the bookings fit in the 60 days. */
const SLOT_CAPACITY = 20;
/** Longest wait for the email worker to start. */
const WORKER_START_MS = 60_000;
const TEAM_ADDRESS = "team@firm.bench";
const ROOT = path.resolve(__dirname, "..");

function seconds(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 3600) {
    throw new Error(`${name} must be a whole number of seconds from 1 to 3600 (got "${raw}")`);
  }
  return value;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** The variable that makes this file, forked, the benchmark's SMTP server. */
const SMTP_ROLE = "BENCH_EMAIL_SMTP_SERVER";

/** What the SMTP server process tells the benchmark. */
type SmtpEvent =
  | { kind: "listening"; url: string }
  | { kind: "connection" }
  /** `at`: epoch milliseconds (performance.timeOrigin + performance.now()) */
  | { kind: "message"; to: string[]; at: number };

function isSmtpEvent(value: unknown): value is SmtpEvent {
  if (typeof value !== "object" || value === null || !("kind" in value)) return false;
  switch (value.kind) {
    case "listening":
      return "url" in value && typeof value.url === "string";
    case "connection":
      return true;
    case "message":
      return "to" in value && Array.isArray(value.to) && "at" in value && typeof value.at === "number";
    default:
      return false;
  }
}

/**
 * The SMTP server process: a stock smtp-server (100 ms before its greeting, no reverse lookup of
 * the client) on a free port that reports each connection and each message it accepts.
 */
async function serveSmtp(): Promise<void> {
  const report = (event: SmtpEvent) => process.send?.(event);
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    disableReverseLookup: true,
    closeTimeout: 10,
    logger: false,
    onConnect(_session, callback) {
      report({ kind: "connection" });
      callback();
    },
    onData(stream, session, callback) {
      stream.on("data", () => undefined);
      stream.on("error", (err: Error) => callback(err));
      stream.on("end", () => {
        const at = performance.timeOrigin + performance.now();
        report({ kind: "message", to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()), at });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  process.on("disconnect", () => server.close(() => process.exit(0)));
  report({ kind: "listening", url: `smtp://127.0.0.1:${port}` });
}

if (process.env[SMTP_ROLE] === "1") {
  serveSmtp().catch((err: unknown) => {
    process.stderr.write(`SMTP server failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}

/** The benchmark's SMTP server, in a process of its own as a relay would be on its own host. */
interface BenchSmtp {
  url: string;
  /** performance.now() of this process when the first message to each address was received in full */
  firstArrival: Map<string, number>;
  /** messages received per address */
  counts: Map<string, number>;
  messages(): number;
  connections(): number;
  stop(): Promise<void>;
}

/**
 * Forks this file as the SMTP server and waits until it listens.
 * @throws when it exits first or does not listen within WORKER_START_MS.
 */
async function startBenchSmtp(): Promise<BenchSmtp> {
  const firstArrival = new Map<string, number>();
  const counts = new Map<string, number>();
  let messages = 0;
  let connections = 0;
  const child = fork(__filename, [], {
    execArgv: ["--import", "tsx"],
    env: { ...process.env, [SMTP_ROLE]: "1" },
    stdio: ["ignore", "ignore", "pipe", "ipc"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const listening = new Promise<string>((resolve) => {
    child.on("message", (event: unknown) => {
      if (!isSmtpEvent(event)) return;
      if (event.kind === "listening") resolve(event.url);
      else if (event.kind === "connection") connections++;
      else {
        messages++;
        const at = event.at - performance.timeOrigin;
        for (const to of event.to) {
          counts.set(to, (counts.get(to) ?? 0) + 1);
          if (!firstArrival.has(to)) firstArrival.set(to, at);
        }
      }
    });
  });
  const url = await Promise.race([
    listening,
    exited.then(() => undefined),
    sleep(WORKER_START_MS).then(() => undefined),
  ]);
  if (url === undefined) {
    child.kill("SIGKILL");
    throw new Error(`the SMTP server did not start: ${stderr.trim()}`);
  }
  return {
    url,
    firstArrival,
    counts,
    messages: () => messages,
    connections: () => connections,
    async stop() {
      child.disconnect();
      const stopped = await Promise.race([exited.then(() => true), sleep(10_000).then(() => false)]);
      if (!stopped) child.kill("SIGKILL");
    },
  };
}

/** A running `npm run worker -- email`. */
interface EmailWorker {
  stop(): Promise<void>;
}

/**
 * Starts the email worker (services/worker.ts) with `env` and waits until it logs that it started.
 * @throws when it exits first or does not start within WORKER_START_MS.
 */
async function startEmailWorker(env: NodeJS.ProcessEnv): Promise<EmailWorker> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "services/worker.ts", "email"], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  let out = "";
  const started = new Promise<void>((resolve) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      if (out.length < 100_000) out += chunk.toString();
      if (out.includes('"msg":"worker started"')) resolve();
    });
  });
  const outcome = await Promise.race([
    started.then(() => "started" as const),
    exited.then(() => "exited" as const),
    sleep(WORKER_START_MS).then(() => "timeout" as const),
  ]);
  if (outcome !== "started") {
    child.kill("SIGKILL");
    throw new Error(
      `the email worker ${outcome === "exited" ? "exited" : "did not start"}: ${stderr.trim()}`,
    );
  }
  return {
    async stop() {
      child.kill("SIGTERM");
      const code = await Promise.race([exited, sleep(30_000).then(() => "timeout" as const)]);
      if (code === "timeout") {
        child.kill("SIGKILL");
        throw new Error("the email worker did not stop within 30 s");
      }
    },
  };
}

/** Every bookable slot start from tomorrow to 58 days ahead (weekdays, 09:00–16:30 Pacific). */
function bookableSlots(now: Date): Date[] {
  const today = DateTime.fromJSDate(now, { zone: BUSINESS_TIME_ZONE }).startOf("day");
  const slots: Date[] = [];
  for (let day = 1; day <= 58; day++) {
    const date = today.plus({ days: day }).toISODate();
    if (date === null) continue;
    for (const slot of slotsOfBusinessDay(date)) if (slotRuleViolation(slot, now) === null) slots.push(slot);
  }
  return slots;
}

/** Clients of their own, one per booking (a client may hold only three upcoming bookings). */
async function createClients(db: Db, tag: string, count: number): Promise<{ id: number; email: string }[]> {
  await db.prisma.user.createMany({
    data: Array.from({ length: count }, (_, i) => ({
      uniqueId: generateUniqueId(),
      username: `bench_${tag}_${i}`,
      email: `${tag}-${i}@clients.bench`,
      // never signs in: the benchmark books through the use case
      password: "not-a-password-hash",
      firstName: "Bench",
      lastName: `Client ${i}`,
      userType: "client" as const,
      emailVerified: true,
    })),
  });
  return db.prisma.user.findMany({
    where: { username: { startsWith: `bench_${tag}_` } },
    select: { id: true, email: true },
    orderBy: { id: "asc" },
  });
}

interface Setting {
  seconds: number;
  /** the email worker's sender settings: SMTP_POOL, EMAIL_SEND_CONCURRENCY... (default: the defaults) */
  sender?: Record<string, string>;
  /** extra wait for the queue to drain after the last booking (default 0) */
  extraDrainMs?: number;
}

interface Outcome {
  /** the email worker's configuration */
  config: Config;
  bookings: number;
  /** bookings the booking use case refused or could not finish */
  bookingFailures: number;
  latencies: number[];
  clientsReached: number;
  teamNotices: number;
  duplicates: number;
  messages: number;
  connections: number;
  /** first booking → last confirmation received, seconds */
  spanS: number;
}

/** What one paced run of bookings did. */
interface Booked {
  /** performance.now() when each client's booking resolved, by client address */
  committed: Map<string, number>;
  failures: unknown[];
  start: number;
}

/** Books one appointment per client, RATE a second, each on the next slot; waits for them all. */
async function bookAtRate(db: Db, clients: { id: number; email: string }[], slots: Date[]): Promise<Booked> {
  const committed = new Map<string, number>();
  const failures: unknown[] = [];
  const bookings: Promise<void>[] = [];
  const start = performance.now();
  for (const [i, client] of clients.entries()) {
    const slot = slots[i % slots.length];
    if (!slot) break;
    await sleep(start + (i * 1000) / RATE - performance.now());
    bookings.push(
      bookAppointment({
        db,
        actor: { id: client.id, manages: false },
        input: { appointmentType: "zoom", dateTime: slot.toISOString(), notes: "Quarterly statement review" },
        timeZone: "America/New_York",
      }).then(
        () => {
          committed.set(client.email.toLowerCase(), performance.now());
        },
        (err: unknown) => {
          failures.push(err);
        },
      ),
    );
  }
  await Promise.all(bookings);
  // a booking the database refused (a machine too busy to start its transaction in time) is not
  // the email service's doing: counted and reported, and the emails of the others measured; when
  // most fail, something is broken
  if (failures.length > clients.length / 2) {
    const first = failures[0];
    throw new Error(
      `${failures.length} bookings failed: ${first instanceof Error ? first.message : String(first)}`,
    );
  }
  return { committed, failures, start };
}

/** Waits until every booked client and the team (`teamBefore` notices earlier) got their emails. */
async function emailsArrived(smtp: BenchSmtp, booked: Booked, teamBefore: number, timeoutMs: number) {
  const teamNotices = () => (smtp.counts.get(TEAM_ADDRESS) ?? 0) - teamBefore;
  const reached = () => [...booked.committed.keys()].filter((to) => smtp.firstArrival.has(to)).length;
  const deadline = performance.now() + timeoutMs;
  while (
    performance.now() < deadline &&
    (reached() < booked.committed.size || teamNotices() < booked.committed.size)
  ) {
    await sleep(20);
  }
  return { reached: reached(), teamNotices: teamNotices() };
}

/**
 * One run in a world of its own (scratch database, stream, SMTP server, email worker): a warm-up of
 * WARM_UP_SECONDS of bookings whose emails it waits for, then RATE bookings a second for
 * `setting.seconds`, measured.
 */
async function runScenario(services: TestServices, nc: NatsConnection, setting: Setting): Promise<Outcome> {
  const id = benchId();
  const bus = benchBus(id);
  const cleanup = teardown();
  try {
    const database = await scratchDatabase(services.databaseUrl, id);
    cleanup.defer(`drop database ${database.name}`, () => database.drop());
    const settings = {
      DATABASE_URL: database.url,
      NATS_URL: services.natsUrl,
      REDIS_URL: services.redisUrl,
      REDIS_PREFIX: `portal_bench_${id}:`,
      EVENT_STREAM: bus.stream,
      SUBJECT_PREFIX: bus.prefix,
      APPOINTMENT_SLOT_CAPACITY: String(SLOT_CAPACITY),
      TEAM_EMAIL: TEAM_ADDRESS,
      MAIL_FROM: "Bench <no-reply@firm.bench>",
      PUBLIC_URL: "https://portal.bench",
    };
    const cfg = applyBenchConfig(settings);
    const db = await connectPostgres(database.url);
    cleanup.defer("close database", () => db.close());
    await seed(db, cfg);
    const js = await jetStreamTransport({ nc, stream: bus.stream, subjectPrefix: bus.prefix });
    cleanup.defer(`delete stream ${bus.stream}`, () => deleteStream(nc, bus.stream));
    cleanup.defer("close JetStream transport", () => js.close());
    const warmClients = await createClients(db, "warm", RATE * WARM_UP_SECONDS);
    const clients = await createClients(db, "client", RATE * setting.seconds);
    const slots = bookableSlots(new Date());

    const smtp = await startBenchSmtp();
    cleanup.defer("stop SMTP server", () => smtp.stop());
    // the worker logs at info only so that this process sees "worker started"
    const env = {
      ...process.env,
      ...settings,
      LOG_LEVEL: "info",
      RELAY: "0",
      SMTP_URL: smtp.url,
      ...setting.sender,
    };
    const workerConfig = parseConfig(env);
    const worker = await startEmailWorker(env);
    cleanup.defer("stop the email worker", () => worker.stop());
    const relay = await startRelay({ db, transport: js });
    cleanup.defer("stop relay", () => relay.stop());

    const warm = await bookAtRate(db, warmClients, slots);
    await emailsArrived(smtp, warm, 0, DRAIN_MS + (setting.extraDrainMs ?? 0));
    const before = {
      team: smtp.counts.get(TEAM_ADDRESS) ?? 0,
      messages: smtp.messages(),
      connections: smtp.connections(),
    };

    const booked = await bookAtRate(db, clients, slots.slice(warmClients.length));
    const arrived = await emailsArrived(smtp, booked, before.team, DRAIN_MS + (setting.extraDrainMs ?? 0));
    let lastArrival = booked.start;
    const latencies: number[] = [];
    let duplicates = 0;
    for (const [to, at] of booked.committed) {
      const first = smtp.firstArrival.get(to);
      if (first === undefined) continue;
      latencies.push(first - at);
      lastArrival = Math.max(lastArrival, first);
      duplicates += (smtp.counts.get(to) ?? 1) - 1;
    }
    // the team's notices all go to one address: more than one per booking is a duplicate
    duplicates += Math.max(0, arrived.teamNotices - booked.committed.size);
    return {
      config: workerConfig,
      bookings: booked.committed.size,
      bookingFailures: booked.failures.length,
      latencies,
      clientsReached: arrived.reached,
      teamNotices: Math.min(arrived.teamNotices, booked.committed.size),
      duplicates,
      messages: smtp.messages() - before.messages,
      connections: smtp.connections() - before.connections,
      spanS: (lastArrival - booked.start) / 1000,
    };
  } finally {
    await cleanup.run();
  }
}

function scenario(name: string, run: Outcome, extra: Scenario["metrics"] = []): Scenario {
  const expected = run.bookings * EMAILS_PER_BOOKING;
  const delivered = run.clientsReached + run.teamNotices;
  return {
    name,
    metrics: [
      { name: "bookings", unit: "", value: run.bookings },
      { name: "booking failures", unit: "", value: run.bookingFailures },
      { name: "emails sent", unit: "", value: run.messages },
      { name: "lost", unit: "", value: expected - delivered },
      { name: "duplicates", unit: "", value: run.duplicates },
      ...latencyMetrics("booking→email", run.latencies),
      { name: "delivered", unit: "emails/s", value: run.messages / run.spanS },
      { name: "SMTP connections", unit: "", value: run.connections },
      ...extra,
    ],
  };
}

const p99 = (run: Outcome) =>
  quantile(
    [...run.latencies].sort((a, b) => a - b),
    0.99,
  );

/** The sender settings of a run, as a note. */
function senderSettings(cfg: Config): string {
  return cfg.SMTP_POOL
    ? `SMTP_POOL=1, SMTP_MAX_CONNECTIONS=${cfg.SMTP_MAX_CONNECTIONS}, SMTP_MAX_MESSAGES=${cfg.SMTP_MAX_MESSAGES}, ` +
        `EMAIL_SEND_CONCURRENCY=${cfg.EMAIL_SEND_CONCURRENCY}`
    : `SMTP_POOL=0 (a new connection per message), EMAIL_SEND_CONCURRENCY=${cfg.EMAIL_SEND_CONCURRENCY}`;
}

/**
 * Benchmark P3: booking → client's confirmation email at RATE bookings a second, with the email
 * worker's defaults (pooled SMTP connections, bounded concurrency) and with the old
 * one-connection-per-message sender as the baseline, against an smtp-server with its stock 100 ms
 * greeting. Each run has a scratch database, stream and SMTP server of its own, removed afterwards.
 * @throws when a backing service is missing, a duration setting is invalid, the email worker does
 * not start or more than half of the bookings fail.
 */
export async function run(): Promise<BenchReport> {
  const measuredSeconds = seconds("BENCH_EMAIL_SECONDS", 60);
  const baselineSeconds = seconds("BENCH_EMAIL_BASELINE_SECONDS", 10);
  const services = await benchServices();
  const loadBefore = os.loadavg()[0] ?? Number.NaN;
  const cleanup = teardown();
  try {
    const nc: NatsConnection = await connectNats(services.natsUrl, {
      name: `portal-bench-email-${benchId()}`,
    });
    cleanup.defer("close NATS", () => nc.close());
    const pooled = await runScenario(services, nc, { seconds: measuredSeconds });
    const baseline = await runScenario(services, nc, {
      seconds: baselineSeconds,
      sender: { SMTP_POOL: "0", EMAIL_SEND_CONCURRENCY: "1" },
      extraDrainMs: RATE * baselineSeconds * EMAILS_PER_BOOKING * BASELINE_DRAIN_PER_EMAIL_MS,
    });
    const loadAfter = os.loadavg()[0] ?? Number.NaN;
    return {
      name: "email throughput (P3)",
      notes: [
        `${RATE} bookings/s through bookAppointment for ${measuredSeconds} s; the baseline books for ` +
          `${baselineSeconds} s only, as its queue grows without bound and a full minute would take minutes to ` +
          `drain. Each booking emails the client and the team (${EMAILS_PER_BOOKING} emails): this process books ` +
          "and relays (the gateway); the email worker (`npm run worker -- email`, its own process) consumes and " +
          "sends to a local smtp-server (a third process) with its stock 100 ms greeting. Each run starts with " +
          `${WARM_UP_SECONDS} s of unmeasured bookings.`,
        `pooled: the defaults, ${senderSettings(pooled.config)}; baseline: the old sender, ${senderSettings(baseline.config)}.`,
        "booking→email: the booking's transaction resolved → the SMTP server received the client's confirmation; " +
          `lost: emails not received ${DRAIN_MS / 1000} s after the last booking (the baseline gets ` +
          `${BASELINE_DRAIN_PER_EMAIL_MS} ms more per email); delivered: messages / (first booking → last ` +
          "confirmation). BENCH_EMAIL_SECONDS and BENCH_EMAIL_BASELINE_SECONDS shorten the runs.",
        "Goal: pooled p99 ≤ 1000 ms and 0 lost. The machine's 1-minute load average (other work shares its " +
          `${os.cpus().length} cores and PostgreSQL): ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after.`,
      ],
      scenarios: [
        scenario(`pooled (${measuredSeconds} s)`, pooled, [
          { name: "p99 vs baseline", unit: "×", value: p99(baseline) / p99(pooled) },
        ]),
        scenario(`baseline: 1 connection/message (${baselineSeconds} s)`, baseline),
      ],
    };
  } finally {
    await cleanup.run();
  }
}
