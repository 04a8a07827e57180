import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { createApp } from "@gateway/app";
import { fakeWebDist, redisSessionStore, testConfig, testRedis } from "@gateway/testing/appHarness";
import { leakedSecrets, sessionCookieOf } from "@gateway/testing/identityHarness";
import { newEventId } from "@schema/events";
import { ROUND_TRIP_CONSUMERS, SYNC_STATE_CONSUMERS } from "@services/diagnostics/testing";
import { startTestSmtp, type TestSmtp } from "@services/email/testing";
import { services } from "@services/registry";
import { type Config, config, setConfig } from "@services/shared/config";
import type { Db } from "@services/shared/db";
import { type PrivateNats, privateNats, uniqueBus } from "@services/shared/events/testing/bus";
import { type RedisClient } from "@services/shared/redis";
import { type Runtime, startRuntime } from "@services/shared/runtime";
import { scratchDatabase } from "@services/shared/testing/db";
import {
  createAppointment,
  createDocument,
  createUser,
  TEST_PASSWORD,
} from "@services/shared/testing/factories";
import { type PrivateRedis, startPrivateRedis } from "@services/shared/testing/privateRedis";
import type { Express } from "express";
import request from "supertest";

// The testing tools over GraphQL (issue 12) on a real runtime of the file's own: a database, a
// private redis-server and nats-server (stopped by the outage test), the relay and every service's
// round-trip consumer on JetStream. Sessions live in the run's Redis, so signing in still works
// while the private one is down.

let runtime: Runtime;
let app: Express;
let db: Db;
let sessions: RedisClient;
let redis: PrivateRedis;
let nats: PrivateNats;
let smtp: TestSmtp;
let stopApp: () => Promise<void>;
let dropDb: () => Promise<void>;
let removeWeb: () => void;
let saved: Config;
const bodies: string[] = [];

beforeAll(async () => {
  saved = config();
  const scratch = await scratchDatabase();
  dropDb = scratch.drop;
  [redis, nats, smtp] = await Promise.all([startPrivateRedis(), privateNats(), startTestSmtp()]);
  await nats.start();
  const bus = uniqueBus();
  const given: Config = {
    ...saved,
    DATABASE_URL: scratch.url,
    REDIS_URL: redis.url,
    NATS_URL: nats.url,
    EVENT_STREAM: bus.stream,
    SUBJECT_PREFIX: bus.prefix,
    SMTP_URL: smtp.url,
    ESRT_NATS: false,
  };
  setConfig(given);
  runtime = await startRuntime(given, {
    allowEmbedded: false,
    consumers: [...ROUND_TRIP_CONSUMERS, ...SYNC_STATE_CONSUMERS],
    relay: true,
  });
  db = runtime.db;
  sessions = await testRedis();
  const cfg = testConfig();
  const web = fakeWebDist();
  removeWeb = web.remove;
  const created = await createApp({
    config: cfg,
    db,
    readiness: {},
    sessionStore: redisSessionStore(sessions, cfg),
    redis: sessions,
    webDist: web.dir,
    probes: { readiness: runtime.readiness, transport: runtime.transport },
  });
  app = created.app;
  stopApp = created.stop;
}, 60_000);

afterAll(async () => {
  await stopApp?.();
  await runtime?.close();
  sessions?.destroy();
  await Promise.all([redis?.stop(), nats?.destroy(), smtp?.stop()]);
  removeWeb?.();
  await dropDb?.();
  setConfig(saved);
}, 30_000);

interface GqlError {
  message?: string;
  extensions?: { code?: string };
}

type Data = Record<
  string,
  Record<string, unknown> & { __typename?: string; code?: string; message?: string }
>;

async function gql(query: string, cookie = "", variables: Record<string, unknown> = {}) {
  const res = await request(app).post("/graphql").set("Cookie", cookie).send({ query, variables });
  bodies.push(res.text);
  expect(res.status).toBeLessThan(500);
  return { data: (res.body.data ?? null) as Data | null, errors: res.body.errors as GqlError[] | undefined };
}

async function signIn(
  userType: "client" | "prospect" | "userAdmin" | "mainAdmin",
): Promise<{ cookie: string; id: number }> {
  const user = await createUser(db, { userType });
  const res = await request(app).post("/api/login").send({ login: user.username, password: TEST_PASSWORD });
  const cookie = sessionCookieOf(res);
  if (!cookie) throw new Error(`sign-in failed: ${res.status} ${res.text}`);
  return { cookie, id: user.id };
}

/** The refusal's code, whether answered as a top-level error or as a typed AppError result. */
function refusal(res: { data: Data | null; errors?: GqlError[] }, field: string): string | undefined {
  const typed = res.data?.[field];
  if (typed?.__typename === "AppError") return typed.code;
  return res.errors?.[0]?.extensions?.code;
}

const HEALTH = `{ systemHealth { checkedAt stream streamMessages
  dependencies { key name status mode latencyMs detail lastAttemptAt }
  consumers { name service pending ackPending redelivered active } } }`;
const PIPELINE = "{ eventPipeline { outboxBacklog oldestUnpublishedAt deadLetters } }";
const ROUND_TRIP_FIELDS =
  "eventId committedAt publishedAt complete timedOut answers { consumer service handledAt msAfterCommit }";
const START = `mutation { startEventRoundTrip { __typename ... on AppError { code message }
  ... on MutationStartEventRoundTripSuccess { data { ${ROUND_TRIP_FIELDS} } } } }`;
const ROUND_TRIP = `query ($eventId: String!) { eventRoundTrip(eventId: $eventId) { __typename
  ... on AppError { code message } ... on QueryEventRoundTripSuccess { data { ${ROUND_TRIP_FIELDS} } } } }`;
const DEAD_LETTERS = `query ($first: Int, $after: String) { deadLetters(first: $first, after: $after) { __typename
  ... on AppError { code message }
  ... on QueryDeadLettersSuccess { data { endCursor hasNextPage
    nodes { id consumer eventId type subject error attempts createdAt } } } } }`;
const RETRY = `mutation ($id: Int!) { retryDeadLetter(id: $id) { __typename ... on AppError { code message }
  ... on MutationRetryDeadLetterSuccess { data { id consumer eventId outcome } } } }`;

const DEMO = "{ demoData { available users clients } }";
const COUNTS = "users clients appointments documents";
const GENERATE = `mutation { generateDemoData { __typename ... on AppError { code message }
  ... on MutationGenerateDemoDataSuccess { data { ${COUNTS} } } } }`;
const REMOVE = `mutation { removeDemoData { __typename ... on AppError { code message }
  ... on MutationRemoveDemoDataSuccess { data { ${COUNTS} } } } }`;

/** Every table's rows (but the audit log's and the migrations'), as one digest per table. */
async function snapshot(): Promise<Record<string, string>> {
  const tables = await db.prisma.$queryRaw<{ name: string }[]>`
    SELECT tablename AS name FROM pg_tables
    WHERE schemaname = 'public' AND tablename NOT IN ('audit_logs', '_prisma_migrations') ORDER BY 1`;
  const digests: Record<string, string> = {};
  for (const { name } of tables) {
    const [row] = await db.prisma.$queryRawUnsafe<{ digest: string }[]>(
      `SELECT count(*) || ':' || coalesce(md5(string_agg(t::text, '|' ORDER BY t::text)), '') AS digest FROM "${name}" t`,
    );
    digests[name] = row?.digest ?? "";
  }
  return digests;
}

/** Every file under the documents directory. */
function storedFiles(): string[] {
  const dir = path.join(config().DATA_DIR, "documents");
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

interface Dependency {
  key: string;
  status: string;
  mode: string;
  latencyMs: number | null;
  detail: string;
}

async function health(cookie: string): Promise<{
  dependencies: Dependency[];
  consumers: { name: string; pending: number | null; active: boolean }[];
  stream: string | null;
}> {
  const res = await gql(HEALTH, cookie);
  expect(res.errors).toBeUndefined();
  return res.data?.systemHealth as never;
}

/** A dead letter as the consumer runtime records it after the last failed delivery. */
async function deadLetter(consumer: string, envelope: Record<string, unknown>): Promise<number> {
  const [row] = await db.prisma.$queryRaw<{ id: number }[]>`
    INSERT INTO dead_letters (consumer, "eventId", subject, envelope, error, attempts)
    VALUES (${consumer}, ${String(envelope.id)}::uuid, ${`${config().SUBJECT_PREFIX}.${String(envelope.type)}`},
      ${JSON.stringify(envelope)}::jsonb, 'Error: database was away', 5)
    RETURNING id`;
  if (!row) throw new Error("no dead letter");
  return row.id;
}

function syncChanged(userId: number, seq: number) {
  return {
    id: newEventId(),
    type: "esrt.user_sync_changed",
    version: 1,
    occurredAt: new Date().toISOString(),
    actor: null,
    correlationId: "c",
    payload: { userId, uniqueId: `U-${userId}`, latestVersion: 2, acknowledgedVersion: 2, synced: true, seq },
  };
}

describe("testing tools over GraphQL", () => {
  it("refuses every operation to the signed out, a prospect, a client and a userAdmin; audits nothing for them", async () => {
    const id = await deadLetter("user_esrt_sync_state", syncChanged(1, 1));
    const cases: [string, string][] = [["", "UNAUTHENTICATED"]];
    for (const userType of ["prospect", "client", "userAdmin"] as const)
      cases.push([(await signIn(userType)).cookie, "FORBIDDEN"]);
    for (const [cookie, code] of cases) {
      expect(refusal(await gql(HEALTH, cookie), "systemHealth")).toBe(code);
      expect(refusal(await gql(PIPELINE, cookie), "eventPipeline")).toBe(code);
      expect(refusal(await gql(START, cookie), "startEventRoundTrip")).toBe(code);
      expect(refusal(await gql(ROUND_TRIP, cookie, { eventId: newEventId() }), "eventRoundTrip")).toBe(code);
      expect(refusal(await gql(DEAD_LETTERS, cookie), "deadLetters")).toBe(code);
      expect(refusal(await gql(RETRY, cookie, { id }), "retryDeadLetter")).toBe(code);
      expect(refusal(await gql(DEMO, cookie), "demoData")).toBe(code);
      expect(refusal(await gql(GENERATE, cookie), "generateDemoData")).toBe(code);
      expect(refusal(await gql(REMOVE, cookie), "removeDemoData")).toBe(code);
    }
    expect(await db.prisma.user.count({ where: { isDemo: true } })).toBe(0);
    expect(await db.prisma.deadLetter.count({ where: { id } })).toBe(1);
    expect(await db.prisma.auditLog.count({ where: { action: { startsWith: "diagnostics." } } })).toBe(0);
    expect(await db.prisma.outboxEvent.count({ where: { type: "diagnostics.round_trip_requested" } })).toBe(
      0,
    );
    await db.prisma.deadLetter.delete({ where: { id } });
  });

  it("probes the SMTP server of the email settings when SMTP_URL is not set, and says off without one", async () => {
    const { cookie } = await signIn("mainAdmin");
    const server = new URL(smtp.url);
    setConfig({ ...config(), SMTP_URL: undefined });
    try {
      await db.prisma.emailSettings.upsert({
        where: { id: 1 },
        create: { id: 1, smtpHost: server.hostname, smtpPort: Number(server.port), smtpSecurity: "none" },
        update: { smtpHost: server.hostname, smtpPort: Number(server.port), smtpSecurity: "none" },
      });
      const fromSettings = new Map((await health(cookie)).dependencies.map((d) => [d.key, d]));
      expect(fromSettings.get("smtp")).toMatchObject({ status: "up", detail: "Connected and ready to send" });
      expect(fromSettings.get("smtp")?.mode).toContain(server.port);
      await db.prisma.emailSettings.update({ where: { id: 1 }, data: { smtpHost: null, smtpPort: null } });
      const none = new Map((await health(cookie)).dependencies.map((d) => [d.key, d]));
      expect(none.get("smtp")).toMatchObject({ status: "off", mode: "captured" });
    } finally {
      setConfig({ ...config(), SMTP_URL: smtp.url });
    }
  });

  it("shows every dependency up with its latency, the stream and each service's consumer", async () => {
    const { cookie } = await signIn("mainAdmin");
    const h = await health(cookie);
    const byKey = new Map(h.dependencies.map((d) => [d.key, d]));
    expect(byKey.get("database")).toMatchObject({ status: "up", mode: "postgres" });
    expect(byKey.get("sessions")).toMatchObject({ status: "up", mode: "redis" });
    expect(byKey.get("events")).toMatchObject({ status: "up", mode: "jetstream" });
    expect(byKey.get("events")?.detail).toContain(h.stream ?? "none");
    expect(byKey.get("smtp")).toMatchObject({ status: "up", detail: "Connected and ready to send" });
    expect(byKey.get("storage")).toMatchObject({ status: "up", mode: "local" });
    for (const d of h.dependencies.filter((x) => x.status === "up"))
      expect(d.latencyMs).toEqual(expect.any(Number));
    expect(h.stream).toBe(config().EVENT_STREAM);
    // every registered consumer is listed; those this runtime runs have a durable and a worker pulling
    expect(h.consumers.map((c) => c.name).sort()).toEqual(
      Object.values(services)
        .flatMap((s) => s.consumers.map((c) => c.name))
        .sort(),
    );
    for (const c of ROUND_TRIP_CONSUMERS) {
      expect(h.consumers.find((x) => x.name === c.name)).toMatchObject({ pending: 0, active: true });
    }
    expect(h.consumers.find((x) => x.name === "email_welcome")).toMatchObject({
      pending: null,
      active: false,
    });
  });

  it("shows a Pro-app endpoint's recorded health without calling it", async () => {
    const { cookie } = await signIn("mainAdmin");
    const failingSince = new Date(Date.now() - 60_000);
    const endpoint = await db.prisma.esrtEndpoint.create({
      data: {
        url: "https://pro.example.test/hooks",
        secretSealed: "v1.not.a.secret",
        consecutiveFailures: 2,
        failingSince,
        lastFailureAt: failingSince,
      },
    });
    const h = await health(cookie);
    expect(h.dependencies.find((d) => d.key === `proApp:${endpoint.id}`)).toMatchObject({
      status: "degraded",
      mode: "webhook",
      latencyMs: null,
      detail: expect.stringContaining("2 failed attempt(s)"),
    });
    await db.prisma.esrtEndpoint.delete({ where: { id: endpoint.id } });
  });

  it("runs a round trip: each service's consumer answers, with its time after the commit; audited", async () => {
    const admin = await signIn("mainAdmin");
    const started = await gql(START, admin.cookie);
    const trip = started.data?.startEventRoundTrip?.data as { eventId: string; answers: unknown[] };
    expect(trip.answers).toHaveLength(Object.keys(services).length);
    let result: Record<string, unknown> = {};
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const res = await gql(ROUND_TRIP, admin.cookie, { eventId: trip.eventId });
      result = res.data?.eventRoundTrip?.data as Record<string, unknown>;
      if (result.complete) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(result).toMatchObject({ complete: true, timedOut: false, publishedAt: expect.any(String) });
    const answers = result.answers as {
      service: string;
      consumer: string;
      handledAt: string;
      msAfterCommit: number;
    }[];
    expect(answers.map((a) => a.service).sort()).toEqual(Object.keys(services).sort());
    for (const a of answers) {
      expect(a.handledAt).toEqual(expect.any(String));
      expect(a.msAfterCommit).toBeGreaterThanOrEqual(0);
      expect(a.msAfterCommit).toBeLessThan(10_000);
    }
    const audits = await db.prisma.auditLog.findMany({ where: { action: "diagnostics.round_trip_started" } });
    expect(audits).toEqual([expect.objectContaining({ actorId: admin.id, targetId: trip.eventId })]);
  });

  it("refuses a malformed or unknown round-trip id, and another event's id", async () => {
    const { cookie } = await signIn("mainAdmin");
    const bad = await gql(ROUND_TRIP, cookie, { eventId: "not-a-uuid" });
    expect(bad.data?.eventRoundTrip).toMatchObject({
      code: "VALIDATION_FAILED",
      message: "Event ids are UUIDs",
    });
    expect((await gql(ROUND_TRIP, cookie, { eventId: newEventId() })).data?.eventRoundTrip?.code).toBe(
      "NOT_FOUND",
    );
    await db.prisma.$transaction(async (tx) => {
      await tx.$executeRaw`INSERT INTO outbox_events (id, subject, type, envelope, "publishedAt")
        VALUES ('0190f0f0-0000-7000-8000-000000000001'::uuid, 'x.user.registered', 'user.registered', '{}'::jsonb, now())`;
    });
    const other = await gql(ROUND_TRIP, cookie, { eventId: "0190f0f0-0000-7000-8000-000000000001" });
    expect(other.data?.eventRoundTrip?.code).toBe("NOT_FOUND");
  });

  it("lists dead letters a page at a time and retries one: delivered once, removed, audited", async () => {
    const admin = await signIn("mainAdmin");
    const user = await createUser(db, { userType: "client" });
    expect(user.esrtSynced).toBe(false);
    const envelope = syncChanged(user.id, 7);
    const ids = [
      await deadLetter("user_esrt_sync_state", syncChanged(user.id, 1)),
      await deadLetter("user_esrt_sync_state", envelope),
    ];
    const pipeline = await gql(PIPELINE, admin.cookie);
    expect(pipeline.data?.eventPipeline).toMatchObject({ deadLetters: 2, outboxBacklog: expect.any(Number) });

    const first = await gql(DEAD_LETTERS, admin.cookie, { first: 1 });
    const page1 = first.data?.deadLetters?.data as {
      nodes: { id: number; type: string }[];
      endCursor: string;
      hasNextPage: boolean;
    };
    expect(page1.nodes).toEqual([expect.objectContaining({ id: ids[1], type: "esrt.user_sync_changed" })]);
    expect(page1.hasNextPage).toBe(true);
    const second = await gql(DEAD_LETTERS, admin.cookie, { first: 1, after: page1.endCursor });
    const page2 = second.data?.deadLetters?.data as { nodes: { id: number }[]; hasNextPage: boolean };
    expect(page2.nodes.map((n) => n.id)).toEqual([ids[0]]);
    expect(page2.hasNextPage).toBe(false);
    expect((await gql(DEAD_LETTERS, admin.cookie, { after: "bogus" })).data?.deadLetters?.code).toBe(
      "VALIDATION_FAILED",
    );
    expect((await gql(DEAD_LETTERS, admin.cookie, { first: 0 })).data?.deadLetters?.code).toBe(
      "VALIDATION_FAILED",
    );

    const retried = await gql(RETRY, admin.cookie, { id: ids[1] });
    expect(retried.data?.retryDeadLetter?.data).toEqual({
      id: ids[1],
      consumer: "user_esrt_sync_state",
      eventId: envelope.id,
      outcome: "delivered",
    });
    expect((await db.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).esrtSynced).toBe(true);
    expect(await db.prisma.processedEvent.count({ where: { eventId: envelope.id } })).toBe(1);
    // the row is gone: a second retry finds nothing; the same event dead again is not applied twice
    expect((await gql(RETRY, admin.cookie, { id: ids[1] })).data?.retryDeadLetter?.code).toBe("NOT_FOUND");
    await db.prisma.user.update({ where: { id: user.id }, data: { esrtSynced: false } });
    const again = await deadLetter("user_esrt_sync_state", envelope);
    expect((await gql(RETRY, admin.cookie, { id: again })).data?.retryDeadLetter?.data).toMatchObject({
      outcome: "already_applied",
    });
    expect((await db.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).esrtSynced).toBe(false);
    const audits = await db.prisma.auditLog.findMany({
      where: { action: "diagnostics.dead_letter_retried" },
      orderBy: { id: "asc" },
    });
    expect(audits.map((a) => a.targetId)).toEqual([String(ids[1]), String(again)]);
    expect(audits[0]).toMatchObject({
      actorId: admin.id,
      before: expect.objectContaining({
        consumer: "user_esrt_sync_state",
        eventId: envelope.id,
        attempts: 5,
      }),
    });
    await db.prisma.deadLetter.deleteMany({});
  });

  it("refuses to retry a bad id, an unreadable event or a consumer that no longer exists", async () => {
    const { cookie } = await signIn("mainAdmin");
    expect((await gql(RETRY, cookie, { id: 0 })).data?.retryDeadLetter?.code).toBe("VALIDATION_FAILED");
    expect((await gql(RETRY, cookie, { id: 2_147_483_647 })).data?.retryDeadLetter?.code).toBe("NOT_FOUND");
    const unreadable = await deadLetter("user_esrt_sync_state", { id: newEventId(), type: "user.exploded" });
    expect((await gql(RETRY, cookie, { id: unreadable })).data?.retryDeadLetter?.code).toBe("UNPROCESSABLE");
    const gone = await deadLetter("retired_consumer", syncChanged(1, 1));
    expect((await gql(RETRY, cookie, { id: gone })).data?.retryDeadLetter?.code).toBe("UNPROCESSABLE");
    expect(await db.prisma.deadLetter.count()).toBe(2);
    await db.prisma.deadLetter.deleteMany({});
  });

  it("generates demo clients with appointments, documents and notes and a demo user of each other role, then removes exactly them", async () => {
    const admin = await signIn("mainAdmin");
    // real data that must survive: a client with a note, an appointment and a document
    const real = await createUser(db, { userType: "client", notes: "Real note" });
    await createAppointment(db, { userId: real.id });
    await createDocument(db, { userId: real.id });
    const before = await snapshot();
    const filesBefore = storedFiles();

    expect((await gql(DEMO, admin.cookie)).data?.demoData).toEqual({ available: true, users: 0, clients: 0 });
    const made = await gql(GENERATE, admin.cookie);
    // what generating makes is what removing removes
    const demoCounts = { users: 8, clients: 5, appointments: 5, documents: 10 };
    expect(made.data?.generateDemoData?.data).toEqual(demoCounts);
    const demo = await db.prisma.user.findMany({
      where: { isDemo: true },
      include: { noteHistory: true },
      orderBy: { id: "asc" },
    });
    // five clients, then one demo user of each role the role switcher offers besides client
    expect(demo.map((u) => u.userType)).toEqual([
      ...Array<string>(5).fill("client"),
      "prospect",
      "userAdmin",
      "mainAdmin",
    ]);
    for (const u of demo) {
      expect(u).toMatchObject({ emailVerified: true, userStatus: "active" });
      expect(u.email).toMatch(/@demo\.invalid$/);
      const client = u.userType === "client";
      expect(u.noteHistory).toHaveLength(client ? 1 : 0);
      expect(await db.prisma.appointment.count({ where: { userId: u.id } })).toBe(client ? 1 : 0);
      expect(await db.prisma.document.count({ where: { userId: u.id } })).toBe(client ? 2 : 0);
      if (u.userType === "mainAdmin" || u.userType === "userAdmin") expect(u.accessLevel).toBe("full");
    }
    // a demo user cannot sign in with a password: nobody knows it
    for (const u of [demo[0], demo[7]]) {
      const login = await request(app)
        .post("/api/login")
        .send({ login: u?.username, password: TEST_PASSWORD });
      expect(login.status).toBe(401);
    }
    expect(storedFiles()).toHaveLength(filesBefore.length + 10);
    expect((await gql(DEMO, admin.cookie)).data?.demoData).toEqual({ available: true, users: 8, clients: 5 });
    // a second generation is refused while demo data exists
    expect((await gql(GENERATE, admin.cookie)).data?.generateDemoData).toMatchObject({
      code: "CONFLICT",
      message: "Demo data already exists: remove it first",
    });

    const removed = await gql(REMOVE, admin.cookie);
    expect(removed.data?.removeDemoData?.data).toEqual(demoCounts);
    expect(await db.prisma.user.count({ where: { isDemo: true } })).toBe(0);
    expect(await snapshot()).toEqual(before);
    expect(storedFiles()).toEqual(filesBefore);

    const audits = await db.prisma.auditLog.findMany({
      where: { action: { startsWith: "diagnostics.demo_data" } },
      orderBy: { id: "asc" },
    });
    expect(audits.map((a) => [a.action, a.actorId])).toEqual([
      ["diagnostics.demo_data_generated", admin.id],
      ["diagnostics.demo_data_removed", admin.id],
    ]);
    expect(audits[0]?.after).toMatchObject({ users: 8, clients: 5, appointments: 5, documents: 10 });
    expect(audits[1]?.before).toMatchObject({
      users: 8,
      clients: 5,
      userIds: demo.map((u) => u.id).sort((a, b) => a - b),
    });
  });

  it("refuses demo data in production, on the server", async () => {
    const admin = await signIn("mainAdmin");
    const current = config();
    setConfig({ ...current, NODE_ENV: "production" });
    try {
      expect((await gql(DEMO, admin.cookie)).data?.demoData).toEqual({
        available: false,
        users: 0,
        clients: 0,
      });
      for (const [query, field] of [
        [GENERATE, "generateDemoData"],
        [REMOVE, "removeDemoData"],
      ] as const) {
        expect((await gql(query, admin.cookie)).data?.[field]).toMatchObject({
          code: "FORBIDDEN",
          message: "Demo data is not available in production",
        });
      }
    } finally {
      setConfig(current);
    }
    expect(await db.prisma.user.count({ where: { isDemo: true } })).toBe(0);
    expect(
      await db.prisma.auditLog.count({ where: { action: { startsWith: "diagnostics.demo_data" } } }),
    ).toBe(2);
  });

  it("reports Redis, NATS and SMTP down within seconds while they are stopped", async () => {
    const { cookie } = await signIn("mainAdmin");
    await Promise.all([redis.kill(), nats.stop(), smtp.stop()]);
    try {
      const started = Date.now();
      const h = await health(cookie);
      expect(Date.now() - started).toBeLessThan(5000);
      const byKey = new Map(h.dependencies.map((d) => [d.key, d]));
      expect(byKey.get("sessions")?.status).toBe("down");
      expect(byKey.get("events")?.status).toBe("down");
      expect(byKey.get("smtp")?.status).toBe("down");
      expect(byKey.get("database")?.status).toBe("up");
      expect(byKey.get("storage")?.status).toBe("up");
    } finally {
      await Promise.all([redis.start(), nats.start(), smtp.start()]);
    }
    expect(leakedSecrets(bodies)).toEqual([]);
  }, 30_000);
});
