import { randomBytes } from "node:crypto";
import { workloadFor } from "@services/registry";
import { seed } from "@services/seed";
import { parseConfig } from "@services/shared/config";
import { deleteStream, waitFor } from "@services/shared/events/testing/bus";
import { connectNats } from "@services/shared/nats";
import { connectRedis, type RedisClient } from "@services/shared/redis";
import { type Runtime, startRuntime } from "@services/shared/runtime";
import { scratchDatabase } from "@services/shared/testing/db";
import { TEST_PASSWORD } from "@services/shared/testing/factories";
import type { Express } from "express";
import request from "supertest";
import { createApp } from "./app";
import { SESSION_COOKIE } from "./http/session";
import { fakeWebDist } from "./testing/appHarness";

// Two portals with different databases on the same NATS and the same Redis (staging and production
// on shared infrastructure, or two checkouts on one machine): each must see only its own events and
// sessions, with the names derived from each database and with names set to the same values.

interface Portal {
  runtime: Runtime;
  app: Express;
  stop(): Promise<void>;
}

const web = fakeWebDist();
let redis: RedisClient;

beforeAll(async () => {
  redis = await connectRedis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
});
afterAll(async () => {
  redis.destroy();
  web.remove();
});

/** A whole portal (every service's workers, the relay, the gateway) on a database of its own. */
async function startPortal(names: Record<string, string>): Promise<Portal> {
  const scratch = await scratchDatabase();
  const { EVENT_STREAM: _s, SUBJECT_PREFIX: _p, REDIS_PREFIX: _r, ...env } = process.env;
  const given = parseConfig({ ...env, DATABASE_URL: scratch.url, ...names });
  const runtime = await startRuntime(given, { allowEmbedded: false, ...workloadFor("all"), relay: true });
  await seed(runtime.db, runtime.config);
  const { app, stop } = await createApp({
    config: runtime.config,
    db: runtime.db,
    sessionStore: runtime.sessionStore,
    redis: runtime.redis,
    deployment: runtime.deployment,
    readiness: runtime.readiness,
    webDist: web.dir,
  });
  return {
    runtime,
    app,
    async stop() {
      await stop();
      await runtime.close();
      await scratch.drop();
    },
  };
}

async function removeTraces(portals: Portal[]): Promise<void> {
  const nc = await connectNats(process.env.NATS_URL ?? "nats://127.0.0.1:4222");
  try {
    for (const { runtime } of portals) {
      await deleteStream(nc, runtime.config.EVENT_STREAM);
      for await (const keys of redis.scanIterator({ MATCH: `${runtime.config.REDIS_PREFIX}*`, COUNT: 200 })) {
        if (keys.length > 0) await redis.del(keys);
      }
    }
  } finally {
    await nc.close();
  }
}

function sessionCookie(res: request.Response): string {
  const header = res.headers["set-cookie"];
  const cookies: string[] = Array.isArray(header) ? header : header ? [String(header)] : [];
  return cookies.find((c) => c.startsWith(`${SESSION_COOKIE}=`))?.split(";")[0] ?? "";
}

/** Registers a person on a portal; answers their address and session cookie. */
async function register(
  portal: Portal,
  name: string,
): Promise<{ email: string; cookie: string; id: number }> {
  const suffix = randomBytes(4).toString("hex");
  const email = `${name}_${suffix}@example.test`;
  const res = await request(portal.app)
    .post("/api/register")
    .send({
      username: `${name}_${suffix}`,
      email,
      password: TEST_PASSWORD,
      firstName: name,
      lastName: "Tester",
      phone: "+1 (555) 123-4567",
      companyName: "Acme Receivables",
      userType: "prospect",
    });
  expect(res.status).toBe(201);
  return { email, cookie: sessionCookie(res), id: res.body.id };
}

async function verificationEmailsTo(portal: Portal, email: string): Promise<number> {
  return portal.runtime.db.prisma.emailMessage.count({
    where: { templateKey: "email_verification", toAddress: email },
  });
}

/** Every event a portal's consumers applied came from its own outbox. */
async function appliedForeignEvents(portal: Portal): Promise<number> {
  const [row] = await portal.runtime.db.prisma.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM processed_events p
    WHERE NOT EXISTS (SELECT 1 FROM outbox_events o WHERE o.id = p."eventId")`;
  return row?.n ?? -1;
}

async function expectApart(a: Portal, b: Portal): Promise<void> {
  const ada = await register(a, "ada");
  const bob = await register(b, "bob");

  // each portal's email service queues exactly its own person's verification email
  await waitFor(
    async () => (await verificationEmailsTo(a, ada.email)) === 1,
    "Ada's verification email",
    20_000,
  );
  await waitFor(
    async () => (await verificationEmailsTo(b, bob.email)) === 1,
    "Bob's verification email",
    20_000,
  );
  // what each portal applied, the other had time to apply too, had it seen it
  await waitFor(
    async () => Object.values(await a.runtime.consumerLag()).every((n) => n === 0),
    "A idle",
    20_000,
  );
  await waitFor(
    async () => Object.values(await b.runtime.consumerLag()).every((n) => n === 0),
    "B idle",
    20_000,
  );
  expect(await verificationEmailsTo(a, bob.email)).toBe(0);
  expect(await verificationEmailsTo(b, ada.email)).toBe(0);
  expect(await a.runtime.db.prisma.emailMessage.count({ where: { toAddress: ada.email } })).toBe(1);
  expect(await b.runtime.db.prisma.emailMessage.count({ where: { toAddress: bob.email } })).toBe(1);
  expect(await appliedForeignEvents(a)).toBe(0);
  expect(await appliedForeignEvents(b)).toBe(0);
  expect(await a.runtime.db.prisma.deadLetter.count()).toBe(0);
  expect(await b.runtime.db.prisma.deadLetter.count()).toBe(0);

  // a session of one is not a session of the other (same cookie name, same SESSION_SECRET)
  expect((await request(a.app).get("/api/user").set("Cookie", ada.cookie)).status).toBe(200);
  expect((await request(b.app).get("/api/user").set("Cookie", bob.cookie)).status).toBe(200);
  expect((await request(b.app).get("/api/user").set("Cookie", ada.cookie)).status).toBe(401);
  expect((await request(a.app).get("/api/user").set("Cookie", bob.cookie)).status).toBe(401);
  // and B's refusal did not end Ada's session on A
  expect((await request(a.app).get("/api/user").set("Cookie", ada.cookie)).status).toBe(200);

  // a password change on A ends Ada's other sessions there, and none of B's, though two fresh
  // databases give their first people the same id
  const login = async (portal: Portal, email: string) => {
    await portal.runtime.db.prisma.user.update({ where: { email }, data: { emailVerified: true } });
    const res = await request(portal.app).post("/api/login").send({ login: email, password: TEST_PASSWORD });
    expect(res.status).toBe(200);
    return sessionCookie(res);
  };
  const adaElsewhere = await login(a, ada.email);
  const bobElsewhere = await login(b, bob.email);
  expect((await request(a.app).get("/api/user").set("Cookie", adaElsewhere)).status).toBe(200);
  const changed = await request(a.app)
    .post("/api/user/password")
    .set("Cookie", ada.cookie)
    .send({ currentPassword: TEST_PASSWORD, newPassword: "Quiet-Harbour-64!" });
  expect(changed.status).toBe(200);
  expect((await request(a.app).get("/api/user").set("Cookie", adaElsewhere)).status).toBe(401);
  expect((await request(b.app).get("/api/user").set("Cookie", bob.cookie)).status).toBe(200);
  expect((await request(b.app).get("/api/user").set("Cookie", bobElsewhere)).status).toBe(200);
}

describe("two portals on one NATS and one Redis", () => {
  it("with the names derived from each database, never share a stream, a subject or a key", async () => {
    const a = await startPortal({});
    const b = await startPortal({});
    try {
      expect(a.runtime.deployment).not.toBe(b.runtime.deployment);
      expect(a.runtime.config).toMatchObject({
        EVENT_STREAM: `PORTAL_${a.runtime.deployment}`,
        SUBJECT_PREFIX: `portal_${a.runtime.deployment}`,
        REDIS_PREFIX: `portal:${a.runtime.deployment}:`,
      });
      expect(b.runtime.config.EVENT_STREAM).toBe(`PORTAL_${b.runtime.deployment}`);
      await expectApart(a, b);
      // separate streams: nothing of the other's ever arrived
      expect(a.runtime.droppedEvents().email_registration).toBe(0);
      expect(b.runtime.droppedEvents().email_registration).toBe(0);
      const keys = await redis.keys(`${a.runtime.config.REDIS_PREFIX}sess:*`);
      expect(keys.length).toBeGreaterThanOrEqual(1);
    } finally {
      await a.stop();
      await b.stop();
      await removeTraces([a, b]);
    }
  }, 120_000);

  it("configured to share one stream, subject prefix and Redis prefix, still apply only their own", async () => {
    const suffix = randomBytes(3).toString("hex");
    const shared = {
      EVENT_STREAM: `${process.env.EVENT_STREAM ?? "PORTAL_T"}_SHARED_${suffix}`,
      SUBJECT_PREFIX: `${process.env.SUBJECT_PREFIX ?? "t"}shared${suffix}`,
      REDIS_PREFIX: `${process.env.REDIS_PREFIX ?? "test:"}shared${suffix}:`,
    };
    const a = await startPortal(shared);
    const b = await startPortal(shared);
    try {
      expect(a.runtime.config).toMatchObject(shared);
      expect(b.runtime.config).toMatchObject(shared);
      await expectApart(a, b);
      // each saw the other's registration on the shared stream, and dropped it
      await waitFor(
        () => (a.runtime.droppedEvents().email_registration ?? 0) >= 1,
        "A to drop Bob's registration",
        20_000,
      );
      await waitFor(
        () => (b.runtime.droppedEvents().email_registration ?? 0) >= 1,
        "B to drop Ada's registration",
        20_000,
      );
    } finally {
      await a.stop();
      await b.stop();
      await removeTraces([a]);
    }
  }, 120_000);
});
