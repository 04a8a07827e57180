import { randomBytes } from "node:crypto";
import { migrateDatabase } from "@db/migrate";
import { AckPolicy, DeliverPolicy, type JsMsg, jetstream, jetstreamManager } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/transport-node";
import { userSyncPayloadSchema } from "@schema/esrt/contract";
import { connectPostgres, type Db } from "@services/shared/db";
import { settle, waitFor } from "@services/shared/events/testing/bus";
import type { User } from "@services/shared/generated/prisma/client";
import { connectNats } from "@services/shared/nats";
import { scratchDatabase, testDb } from "@services/shared/testing/db";
import { createUser } from "@services/shared/testing/factories";
import { syncSnapshot } from "@services/user";
import { userSyncPayload } from "./deliveries";
import {
  type EsrtNatsChannel,
  ensureEsrtStream,
  isSubjectToken,
  startEsrtNats,
  userSubject,
} from "./natsChannel";
import { applySnapshot } from "./state";

// The Pro app's NATS channel against the machine's NATS and this run's database: the test plays
// the Pro app with a JetStream consumer of its own and by publishing acks.

let nc: NatsConnection;
let db: Db;
const channels: EsrtNatsChannel[] = [];
const streams: string[] = [];

beforeAll(async () => {
  nc = await connectNats(process.env.NATS_URL ?? "nats://127.0.0.1:4222");
  db = await testDb();
});
afterEach(async () => {
  await Promise.all(channels.splice(0).map((c) => c.stop()));
  const jsm = await jetstreamManager(nc);
  for (const stream of streams.splice(0)) await jsm.streams.delete(stream).catch(() => undefined);
});
afterAll(async () => {
  await nc.close();
});

/** A stream and prefix of the test's own (named after this run's, so the teardown finds them). */
function names(): { stream: string; subjectPrefix: string } {
  const suffix = randomBytes(4).toString("hex");
  const stream = `${process.env.ESRT_STREAM ?? "ESRT_T"}_${suffix}`;
  streams.push(stream);
  return { stream, subjectPrefix: `${process.env.ESRT_SUBJECT_PREFIX ?? "esrt_t"}${suffix}` };
}

async function start(
  where: { stream: string; subjectPrefix: string },
  extra: Partial<Parameters<typeof startEsrtNats>[0]> = {},
): Promise<EsrtNatsChannel> {
  const channel = await startEsrtNats({ db, nc, ackWaitMs: 1000, maxRetryDelayMs: 200, ...where, ...extra });
  channels.push(channel);
  return channel;
}

/** A user whose sync state holds versions 1..latest (the snapshot consumer's work, done directly). */
async function userAtVersion(latest: number): Promise<User> {
  const user = await createUser(db, { userType: "client" });
  for (let version = 1; version <= latest; version++) {
    await db.prisma.$transaction((tx) =>
      applySnapshot(tx, { userId: user.id, snapshot: { ...syncSnapshot(user), version } }),
    );
  }
  return user;
}

function payloadAt(user: User, version: number) {
  return userSyncPayload({ snapshot: { ...syncSnapshot(user), version } });
}

async function stateOf(userId: number) {
  return db.prisma.esrtUserState.findUniqueOrThrow({ where: { userId } });
}

const text = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

describe("the stream", () => {
  it("is created once with its subjects, one message per subject and a 2-minute duplicate window", async () => {
    const where = names();
    await start(where);
    await start(where, { durable: "second_process" });
    const jsm = await jetstreamManager(nc);
    await ensureEsrtStream(jsm, where.stream, where.subjectPrefix);
    const info = await jsm.streams.info(where.stream);
    expect([...info.config.subjects].sort()).toEqual(
      [`${where.subjectPrefix}.ack.>`, `${where.subjectPrefix}.user.>`].sort(),
    );
    expect(info.config.max_msgs_per_subject).toBe(1);
    expect(info.config.storage).toBe("file");
    expect(info.config.duplicate_window).toBe(120_000_000_000);
  });

  it("brings an existing stream with other settings to the channel's", async () => {
    const where = names();
    const jsm = await jetstreamManager(nc);
    await jsm.streams.add({
      name: where.stream,
      subjects: [`${where.subjectPrefix}.user.>`],
      max_msgs_per_subject: -1,
    });
    await start(where);
    const info = await jsm.streams.info(where.stream);
    expect(info.config.subjects).toContain(`${where.subjectPrefix}.ack.>`);
    expect(info.config.max_msgs_per_subject).toBe(1);
  });
});

describe("publishSnapshot", () => {
  it("publishes on <prefix>.user.<uniqueId> with Nats-Msg-Id <uniqueId>:<version>; a repeat is a duplicate", async () => {
    const where = names();
    const channel = await start(where);
    const user = await userAtVersion(1);
    await channel.publishSnapshot({ uniqueId: user.uniqueId, version: 1, payload: payloadAt(user, 1) });
    await channel.publishSnapshot({ uniqueId: user.uniqueId, version: 1, payload: payloadAt(user, 1) });
    const jsm = await jetstreamManager(nc);
    const stored = await jsm.streams.getMessage(where.stream, {
      last_by_subj: userSubject(where.subjectPrefix, user.uniqueId),
    });
    expect(stored?.header.get("Nats-Msg-Id")).toBe(`${user.uniqueId}:1`);
    expect(userSyncPayloadSchema.parse(stored?.json())).toMatchObject({
      type: "user.sync",
      data: { uniqueId: user.uniqueId, version: 1 },
    });
    expect(stored?.seq).toBe(1);
    expect((await jsm.streams.info(where.stream)).state.messages).toBe(1);
    expect(channel.stats().published).toBe(2);
  });

  it("refuses a uniqueId that cannot be a subject token, and a payload of another user or version", async () => {
    const channel = await start(names());
    const user = await userAtVersion(2);
    for (const uniqueId of ["a.b", "a*", ">", "a b", "", "é"]) {
      await expect(
        channel.publishSnapshot({ uniqueId, version: 1, payload: payloadAt(user, 1) }),
      ).rejects.toThrow(TypeError);
    }
    await expect(
      channel.publishSnapshot({ uniqueId: user.uniqueId, version: 2, payload: payloadAt(user, 1) }),
    ).rejects.toThrow(TypeError);
    await expect(
      channel.publishSnapshot({ uniqueId: user.uniqueId, version: 1, payload: { type: "user.sync" } }),
    ).rejects.toThrow(TypeError);
  });

  it("re-creates a stream deleted under it", async () => {
    const where = names();
    const channel = await start(where);
    const user = await userAtVersion(1);
    const jsm = await jetstreamManager(nc);
    await jsm.streams.delete(where.stream);
    await channel.publishSnapshot({ uniqueId: user.uniqueId, version: 1, payload: payloadAt(user, 1) });
    expect((await jsm.streams.info(where.stream)).state.messages).toBe(1);
  });

  it("fails when the stream cannot take the message and cannot be repaired", async () => {
    const where = names();
    const channel = await start(where, { publishTimeoutMs: 300 });
    const user = await userAtVersion(1);
    // a stream whose subjects no longer match: the publish finds no responder, re-creating fails
    const jsm = await jetstreamManager(nc);
    await jsm.streams.update(where.stream, { subjects: [`${where.subjectPrefix}.other.>`] });
    const blocker = names();
    await jsm.streams.add({ name: blocker.stream, subjects: [`${where.subjectPrefix}.user.>`] });
    await expect(
      channel.publishSnapshot({ uniqueId: user.uniqueId, version: 1, payload: payloadAt(user, 1) }),
    ).rejects.toThrow();
    expect(channel.stats().publishFailures).toBe(1);
  });
});

describe("the Pro app over NATS", () => {
  it("receives each user's snapshots in version order, acks them, and the states become synced", async () => {
    const where = names();
    const channel = await start(where);
    const users = await Promise.all([userAtVersion(4), userAtVersion(4), userAtVersion(4)]);

    // the Pro app: a durable of its own on every user's subject, acking each version it takes in
    const jsm = await jetstreamManager(nc);
    await jsm.consumers.add(where.stream, {
      durable_name: "pro_app",
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      filter_subject: `${where.subjectPrefix}.user.>`,
    });
    const js = jetstream(nc);
    const messages = await (await js.consumers.get(where.stream, "pro_app")).consume();
    const received = new Map<string, number[]>();
    const proApp = (async () => {
      for await (const m of messages as AsyncIterable<JsMsg>) {
        const payload = userSyncPayloadSchema.parse(m.json());
        const { uniqueId, version } = payload.data;
        expect(m.subject).toBe(userSubject(where.subjectPrefix, uniqueId));
        received.set(uniqueId, [...(received.get(uniqueId) ?? []), version]);
        await js.publish(`${where.subjectPrefix}.ack.${uniqueId}`, text({ version }));
        m.ack();
      }
    })();

    // the dispatcher's part: each user's versions one after the other
    await Promise.all(
      users.map(async (user) => {
        for (let version = 1; version <= 4; version++) {
          await channel.publishSnapshot({
            uniqueId: user.uniqueId,
            version,
            payload: payloadAt(user, version),
          });
        }
      }),
    );

    for (const user of users) {
      await waitFor(
        async () => (await stateOf(user.id)).acknowledgedVersion === 4,
        `${user.uniqueId} acknowledged`,
      );
      const versions = received.get(user.uniqueId) ?? [];
      // one message per subject: a version may be replaced before it is read, never read out of order
      expect(versions.at(-1)).toBe(4);
      expect(versions).toEqual([...versions].sort((a, b) => a - b));
      expect(new Set(versions).size).toBe(versions.length);
      const state = await stateOf(user.id);
      expect(state.acknowledgedVia).toBe("nats");
      const reports = await db.prisma.$queryRaw<
        { payload: { acknowledgedVersion: number; synced: boolean } }[]
      >`
        SELECT envelope->'payload' AS payload FROM outbox_events
        WHERE type = 'esrt.user_sync_changed' AND (envelope->'payload'->>'userId')::int = ${user.id}
        ORDER BY (envelope->'payload'->>'seq')::int DESC LIMIT 1`;
      expect(reports[0]?.payload).toMatchObject({ acknowledgedVersion: 4, synced: true });
    }
    messages.stop();
    await proApp;
    expect(channel.stats().acksApplied).toBeGreaterThanOrEqual(3);
  });

  it("terminates acks that can never apply, without redelivery, and still applies good ones", async () => {
    const where = names();
    const channel = await start(where);
    const user = await userAtVersion(3);
    const ack = `${where.subjectPrefix}.ack`;
    const js = jetstream(nc);
    const bad: [string, Uint8Array][] = [
      [`${ack}.${user.uniqueId}`, new TextEncoder().encode("{not json")],
      [`${ack}.${user.uniqueId}`, new Uint8Array([0xff, 0xfe, 0x00])],
      [`${ack}.${user.uniqueId}`, text({ version: 0 })],
      [`${ack}.${user.uniqueId}`, text({ version: "2" })],
      [`${ack}.${user.uniqueId}`, text({ version: 2_147_483_648 })],
      [`${ack}.${user.uniqueId}`, text({ version: 4 })],
      [`${ack}.ESRT-NOBODY00`, text({ version: 1 })],
      [`${ack}.${user.uniqueId}.extra`, text({ version: 1 })],
    ];
    // one message per subject: each bad ack must be read before the next replaces it
    for (const [subject, data] of bad) {
      const before = channel.stats().acksRejected;
      await js.publish(subject, data);
      await waitFor(() => channel.stats().acksRejected > before, `refusal of ${subject}`);
    }
    expect((await stateOf(user.id)).acknowledgedVersion).toBe(0);

    await js.publish(`${ack}.${user.uniqueId}`, text({ version: 2 }));
    await waitFor(async () => (await stateOf(user.id)).acknowledgedVersion === 2, "the good ack");
    // longer than ack_wait: nothing comes back
    await settle(1500);
    expect(channel.stats()).toMatchObject({ acksRejected: bad.length, acksApplied: 1, acksRetried: 0 });
    const info = await (await jetstreamManager(nc)).consumers.info(where.stream, "portal_esrt_acks");
    expect(info.num_ack_pending).toBe(0);
    expect(info.num_pending).toBe(0);
    expect(info.num_redelivered).toBe(0);
  });

  it("an older or repeated ack changes nothing", async () => {
    const where = names();
    const channel = await start(where);
    const user = await userAtVersion(2);
    const js = jetstream(nc);
    const subject = `${where.subjectPrefix}.ack.${user.uniqueId}`;
    await js.publish(subject, text({ version: 2 }));
    await waitFor(() => channel.stats().acksApplied === 1, "the ack");
    const seq = (await stateOf(user.id)).seq;
    // one at a time: the stream keeps only the latest message of a subject, so an ack published
    // before the one before it was read would replace it unread
    await js.publish(subject, text({ version: 1 }));
    await waitFor(() => channel.stats().acksApplied === 2, "the older ack");
    expect(await stateOf(user.id)).toMatchObject({ acknowledgedVersion: 2, seq });
    await js.publish(subject, text({ version: 2 }));
    await waitFor(() => channel.stats().acksApplied === 3, "the repeated ack");
    expect(await stateOf(user.id)).toMatchObject({ acknowledgedVersion: 2, seq });
  });

  it("puts an ack back while the database fails, and applies it once the database answers", async () => {
    const where = names();
    const scratch = await scratchDatabase();
    await migrateDatabase({ url: scratch.url });
    const own = await connectPostgres(scratch.url);
    try {
      const user = await createUser(own, { uniqueId: "ESRT-SCRATCH1" });
      await own.prisma.$transaction((tx) =>
        applySnapshot(tx, { userId: user.id, snapshot: syncSnapshot(user) }),
      );
      // the table away: every ack fails as while the database is unreachable (never "unknown user")
      await own.prisma.$executeRawUnsafe("ALTER TABLE esrt_user_states RENAME TO esrt_user_states_away");
      const channel = await start(where, { db: own, durable: "scratch_acks" });
      await jetstream(nc).publish(`${where.subjectPrefix}.ack.${user.uniqueId}`, text({ version: 1 }));
      await waitFor(() => channel.stats().acksRetried >= 2, "retries");
      expect(channel.stats()).toMatchObject({ acksApplied: 0, acksRejected: 0 });

      await own.prisma.$executeRawUnsafe("ALTER TABLE esrt_user_states_away RENAME TO esrt_user_states");
      await waitFor(() => channel.stats().acksApplied === 1, "the ack applied", 10_000);
      const state = await own.prisma.esrtUserState.findUniqueOrThrow({ where: { userId: user.id } });
      expect(state.acknowledgedVersion).toBe(1);
      expect(channel.stats().acksRejected).toBe(0);
      await channel.stop();
    } finally {
      await own.close();
      await scratch.drop();
    }
  }, 30_000);

  it("stop() ends consumption; a restart takes up the acks that came meanwhile", async () => {
    const where = names();
    const first = await start(where);
    const user = await userAtVersion(1);
    await first.stop();
    await jetstream(nc).publish(`${where.subjectPrefix}.ack.${user.uniqueId}`, text({ version: 1 }));
    await settle(300);
    expect((await stateOf(user.id)).acknowledgedVersion).toBe(0);
    expect(await first.pendingAcks()).toBe(1);
    const second = await start(where);
    await waitFor(async () => (await stateOf(user.id)).acknowledgedVersion === 1, "the ack after restart");
    expect(await second.pendingAcks()).toBe(0);
  });
});

describe("isSubjectToken", () => {
  it("accepts generated uniqueIds and refuses what NATS would split or match", () => {
    expect(isSubjectToken("ESRT-0123ABCD")).toBe(true);
    for (const bad of ["", "a.b", "*", "a>", "a b", "a\tb", "ü", "\u0000"])
      expect(isSubjectToken(bad)).toBe(false);
  });
});
