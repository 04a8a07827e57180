import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { USER_SYNC_TYPE, type UserSyncPayload } from "@schema/esrt/contract";
import { config } from "@services/shared/config";
import { waitFor } from "@services/shared/events/testing/bus";
import type { User } from "@services/shared/generated/prisma/client";
import { type Dispatcher, startDispatcher } from "./dispatcher";
import { createEndpoint, getEndpoint, rotateEndpointSecret, setEndpointEnabled } from "./endpoints";
import { type SyncWorld, syncWorld, type TestReceiver, testReceiver } from "./testing";

// The webhook dispatcher against a real HTTP receiver that verifies every signature with the
// standardwebhooks library, on a database of this file's own, with the real relay and consumers
// (user change → user.updated with its snapshot → sync state and deliveries → webhook → ack →
// esrt.user_sync_changed → users.esrtSynced).

let world: SyncWorld;
let receiver: TestReceiver;
let secret = "";
const dispatchers: Dispatcher[] = [];

async function dispatcher(options: Partial<Parameters<typeof startDispatcher>[0]> = {}): Promise<Dispatcher> {
  const d = await startDispatcher({
    db: world.db,
    retryScale: 0.0001,
    timeoutMs: 1000,
    pollMs: 50,
    ...options,
  });
  dispatchers.push(d);
  return d;
}

async function stopDispatchers(): Promise<void> {
  await Promise.all(dispatchers.splice(0).map((d) => d.stop()));
}

/** Versions of one user as the receiver got them, in order of arrival. */
function versionsReceived(uniqueId: string): number[] {
  return receiver.received
    .filter(
      (r) => r.payload.type === USER_SYNC_TYPE && (r.payload as UserSyncPayload).data.uniqueId === uniqueId,
    )
    .map((r) => (r.payload as UserSyncPayload).data.version);
}

async function esrtSynced(userId: number): Promise<boolean> {
  const user = await world.db.prisma.user.findUniqueOrThrow({ where: { id: userId } });
  return user.esrtSynced;
}

async function deliveriesOf(userId: number) {
  return world.db.prisma.esrtDelivery.findMany({ where: { userId }, orderBy: { id: "asc" } });
}

/**
 * Runs `work` on each item, as many at a time as the pool has connections (10), answers in order:
 * 20 at a time queued half of the transactions for a connection, and on a loaded machine one waited
 * past Prisma's 2 s to start ("Unable to start a transaction in the given time").
 */
async function tenAtATime<T, R>(items: T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let from = 0; from < items.length; from += 10) {
    results.push(...(await Promise.all(items.slice(from, from + 10).map(work))));
  }
  return results;
}

/** `count` new users, made 10 at a time. */
function newUsers(count: number): Promise<User[]> {
  return tenAtATime(
    Array.from({ length: count }, (_, i) => i),
    () => world.newUser(),
  );
}

/**
 * A sync worker in a process of its own (testingDispatcherProcess.ts), started with the file so that
 * its slow start (tsx) overlaps the tests before the one that kills it; it starts delivering only
 * when told to go.
 */
let worker: { child: ChildProcessWithoutNullStreams; exited: Promise<NodeJS.Signals | null> } | undefined;

function spawnWorker(): NonNullable<typeof worker> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(__dirname, "testingDispatcherProcess.ts")],
    {
      env: {
        ...process.env,
        TEST_SYNC_DB_URL: world.url,
        SESSION_SECRET: config().SESSION_SECRET ?? "",
        DATA_DIR: config().DATA_DIR,
        ESRT_NATS: "false",
        // the receiver is on loopback: the development switches, as this process has them
        ESRT_ALLOW_HTTP: "true",
        ESRT_ALLOW_PRIVATE: "true",
      },
      stdio: ["pipe", "pipe", "pipe"],
    },
  );
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.on("exit", (_code, signal) => resolve(signal)),
  );
  return { child, exited };
}

beforeAll(async () => {
  world = await syncWorld();
  receiver = await testReceiver(() => secret);
  worker = spawnWorker();
});

afterAll(async () => {
  if (worker && worker.child.exitCode === null && worker.child.signalCode === null) {
    worker.child.kill("SIGKILL");
    await worker.exited;
  }
  await stopDispatchers();
  await receiver.close();
  await world.close();
});

beforeEach(async () => {
  receiver.mode = { kind: "ok" };
  receiver.received.length = 0;
  receiver.requests.length = 0;
  await world.db.prisma.esrtDelivery.deleteMany({});
  await world.db.prisma.esrtEndpoint.deleteMany({});
  const made = await createEndpoint({ db: world.db, actorId: world.admin.id, url: receiver.url });
  secret = made.secret;
});

afterEach(stopDispatchers);

describe("webhook delivery", () => {
  it("delivers a user's change signed per Standard Webhooks, and the 2xx makes the user esrtSynced", async () => {
    await dispatcher();
    const user = await world.newUser();
    await waitFor(async () => esrtSynced(user.id), "the user synced");
    const [message] = receiver.received;
    expect(message?.id).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(message?.payload).toMatchObject({
      type: "user.sync",
      data: { uniqueId: user.uniqueId, username: user.username, email: user.email, version: user.version },
    });
    const state = await world.db.prisma.esrtUserState.findUniqueOrThrow({ where: { userId: user.id } });
    expect(state).toMatchObject({
      latestVersion: user.version,
      acknowledgedVersion: user.version,
      acknowledgedVia: "webhook",
    });
  });

  it("refuses nothing the library accepts and sends nothing the library refuses: a wrong secret gets 401 and is retried", async () => {
    await dispatcher();
    const right = secret;
    secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const user = await world.newUser();
    await waitFor(() => receiver.requests.some((r) => r.status === 401), "a refused signature");
    expect(await esrtSynced(user.id)).toBe(false);
    secret = right;
    await waitFor(async () => esrtSynced(user.id), "synced once the secret matches", 10_000);
  });

  it("signs with both secrets during a rotation's grace, so a receiver on either secret verifies", async () => {
    const endpoint = await world.db.prisma.esrtEndpoint.findFirstOrThrow();
    const old = secret;
    const rotated = await rotateEndpointSecret({ db: world.db, actorId: world.admin.id, id: endpoint.id });
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(old);
    await dispatcher();
    secret = old;
    const first = await world.newUser();
    await waitFor(async () => esrtSynced(first.id), "verified with the old secret");
    secret = rotated.secret;
    const second = await world.newUser();
    await waitFor(async () => esrtSynced(second.id), "verified with the new secret");
  });

  it("an endpoint that always answers 400 ends in a dead letter after the tenth attempt", async () => {
    receiver.mode = { kind: "status", status: 400 };
    // a millionth of the schedule: its 75 hours are 0.27 s, each retry found by a 10 ms poll
    await dispatcher({ retryScale: 0.000001, pollMs: 10 });
    const user = await world.newUser();
    await waitFor(
      async () => (await deliveriesOf(user.id)).some((d) => d.status === "dead"),
      "a dead letter",
      20_000,
    );
    const [dead] = await deliveriesOf(user.id);
    expect(dead).toMatchObject({ status: "dead", attempts: 10, lastStatusCode: 400 });
    const attempts = await world.db.prisma.esrtDeliveryAttempt.findMany({ where: { deliveryId: dead?.id } });
    expect(attempts).toHaveLength(10);
    expect(attempts.every((a) => a.statusCode === 400 && a.responseSnippet === "answer 400")).toBe(true);
    // every attempt carried the same webhook-id
    expect(new Set(receiver.requests.map((r) => r.id)).size).toBe(1);
    const endpoint = await world.db.prisma.esrtEndpoint.findFirstOrThrow();
    expect(endpoint.consecutiveFailures).toBe(10);
    expect(await esrtSynced(user.id)).toBe(false);
  });

  it("410 Gone disables the endpoint; its delivery waits and goes out once it is enabled again", async () => {
    receiver.mode = { kind: "status", status: 410 };
    await dispatcher();
    const user = await world.newUser();
    const endpoint = await world.db.prisma.esrtEndpoint.findFirstOrThrow();
    await waitFor(async () => !(await getEndpoint(world.db, endpoint.id)).enabled, "the endpoint disabled");
    const view = await getEndpoint(world.db, endpoint.id);
    expect(view).toMatchObject({ health: "disabled", disabledReason: "The endpoint answered 410 Gone" });
    const requests = receiver.requests.length;
    await sleep(300);
    expect(receiver.requests.length).toBe(requests);
    receiver.mode = { kind: "ok" };
    await setEndpointEnabled({ db: world.db, actorId: world.admin.id, id: endpoint.id, enabled: true });
    await waitFor(async () => esrtSynced(user.id), "delivered after enabling");
  });

  it("honours Retry-After on 429 (not retried sooner than asked)", async () => {
    // one second, the least a Retry-After can ask, against the schedule's 0.5 ms at this scale
    receiver.mode = { kind: "status", status: 429, headers: { "Retry-After": "1" } };
    await dispatcher();
    const user = await world.newUser();
    await waitFor(() => receiver.requests.length >= 1, "the first attempt");
    receiver.mode = { kind: "ok" };
    await waitFor(async () => esrtSynced(user.id), "delivered after the wait", 10_000);
    const [first, second] = receiver.requests;
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(900);
  });

  it("once the endpoint answers again, a delivery waiting on the retry schedule goes out at once", async () => {
    // sixty times the schedule: the second attempt would come 5 minutes after the first
    await dispatcher({ retryScale: 60 });
    receiver.mode = { kind: "status", status: 500 };
    const waiting = await world.newUser();
    await waitFor(
      async () => (await deliveriesOf(waiting.id)).some((d) => d.status === "pending" && d.attempts === 1),
      "the first attempt refused",
    );
    const [refused] = (await deliveriesOf(waiting.id)).filter((d) => d.status === "pending");
    expect(refused?.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 60_000);

    // the Pro app is back: the next change goes out and succeeds, and the waiting one follows
    receiver.mode = { kind: "ok" };
    const next = await world.newUser();
    await waitFor(async () => esrtSynced(next.id), "the new user synced");
    await waitFor(async () => esrtSynced(waiting.id), "the waiting user synced without waiting 5 minutes");
    expect(versionsReceived(waiting.uniqueId)).toHaveLength(1);
  });

  it("a hanging endpoint times out and is retried", async () => {
    receiver.mode = { kind: "hang" };
    await dispatcher({ timeoutMs: 300 });
    const user = await world.newUser();
    await waitFor(() => receiver.requests.length >= 1, "the first attempt");
    await waitFor(
      async () => (await world.db.prisma.esrtDeliveryAttempt.count()) >= 1,
      "the timeout recorded",
    );
    const [attempt] = await world.db.prisma.esrtDeliveryAttempt.findMany();
    expect(attempt?.error).toBe("No answer within 300 ms");
    receiver.mode = { kind: "ok" };
    await waitFor(async () => esrtSynced(user.id), "delivered after the hang", 10_000);
  });
});

describe("latest state wins", () => {
  it("the Pro app down for a simulated 10 minutes while 200 users change: after it returns each user's latest arrives, none older after newer, all synced", async () => {
    // 1/1000 of the schedule: 10 minutes are 600 ms; the retries fall at 5 ms, 300 ms, 1.8 s... and
    // the first success after the outage brings every waiting retry forward
    // a lease longer than the test: an outcome that failed to be recorded would hold its user back
    await dispatcher({ retryScale: 0.001, concurrency: 16, leaseMs: 300_000 });
    const users = await newUsers(200);
    await waitFor(
      async () =>
        (await world.db.prisma.user.count({
          where: { esrtSynced: true, id: { in: users.map((u) => u.id) } },
        })) === 200,
      "first versions synced",
      30_000,
    );

    await receiver.stop();
    const outageStarted = Date.now();
    const latest = new Map<number, number>();
    // three rounds of changes, 20 users at a time within a round (each user's changes stay in order),
    // so the outage lasts about what it simulates rather than however long 600 changes one by one
    // take on a busy machine (at this scale each real second is 17 minutes of the retry schedule)
    for (let round = 0; round < 3; round += 1) {
      const changed = await tenAtATime(users, (user) => world.change(user));
      for (const user of changed) latest.set(user.id, user.version);
    }
    // Every change made during the outage has reached the sync service (and each user reads as
    // unsynced) before the Pro app returns. Waiting for "unsynced" alone let a user's last change
    // still be on its way: its previous version was then delivered, acknowledged and read as synced
    // a moment before the last one arrived, and the check below saw version 4 of 5.
    const ids = users.map((u) => u.id);
    await waitFor(
      async () => {
        const states = await world.db.prisma.esrtUserState.findMany({
          where: { userId: { in: ids } },
          select: { userId: true, latestVersion: true },
        });
        const unsynced = await world.db.prisma.user.count({ where: { esrtSynced: false, id: { in: ids } } });
        return (
          unsynced === 200 &&
          states.length === 200 &&
          states.every((state) => state.latestVersion === latest.get(state.userId))
        );
      },
      "every change known to the sync service, all unsynced",
      30_000,
    );
    await sleep(Math.max(0, 600 - (Date.now() - outageStarted)));
    await receiver.start();

    await waitFor(
      async () =>
        (await world.db.prisma.user.count({
          where: { esrtSynced: true, id: { in: users.map((u) => u.id) } },
        })) === 200,
      "every user synced after the outage",
      60_000,
    );
    for (const user of users) {
      const versions = versionsReceived(user.uniqueId);
      expect(versions.at(-1)).toBe(latest.get(user.id));
      // never an older version after a newer one
      expect(versions).toEqual([...versions].sort((a, b) => a - b));
    }
  }, 120_000);

  it("two dispatchers at once deliver each version once (one message id per version, retries included)", async () => {
    // the real timeout: on a busy machine a 1-second one would time out answers the receiver got,
    // and their retries (same webhook-id, as they should be) would read as duplicates here
    await dispatcher({ concurrency: 8, timeoutMs: 15_000 });
    await dispatcher({ concurrency: 8, timeoutMs: 15_000 });
    const users = await newUsers(40);
    await tenAtATime(users, (user) => world.change(user));
    await waitFor(
      async () =>
        (await world.db.prisma.user.count({
          where: { esrtSynced: true, id: { in: users.map((u) => u.id) } },
        })) === 40,
      "synced",
      30_000,
    );
    await sleep(300);
    const ids = receiver.received.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const user of users) {
      const versions = versionsReceived(user.uniqueId);
      expect(new Set(versions).size).toBe(versions.length);
      expect(versions).toEqual([...versions].sort((a, b) => a - b));
    }
  }, 60_000);

  it("a dispatcher that dies mid-delivery (never records an outcome) loses nothing: its lease runs out and another sends it with the same webhook-id", async () => {
    receiver.mode = { kind: "hang" };
    // the first dispatcher claims with a short lease and never records its outcome (killed)
    const doomed = await dispatcher({ leaseMs: 500, timeoutMs: 60_000 });
    const user = await world.newUser();
    // this user's delivery, by its webhook-id (a late request of an earlier test's dispatcher may
    // reach the receiver too: it is not this one)
    await waitFor(async () => (await deliveriesOf(user.id)).length === 1, "the user's delivery");
    const firstId = (await deliveriesOf(user.id))[0]?.messageId;
    await waitFor(() => receiver.requests.some((r) => r.id === firstId), "the first attempt in flight");
    receiver.mode = { kind: "ok" };
    await dispatcher();
    await waitFor(async () => esrtSynced(user.id), "delivered by the second dispatcher", 10_000);
    const forUser = receiver.received.filter(
      (r) =>
        r.payload.type === USER_SYNC_TYPE && (r.payload as UserSyncPayload).data.uniqueId === user.uniqueId,
    );
    expect(forUser.map((r) => r.id)).toEqual([firstId]);
    // the first one's request fails at last: what it records changes nothing
    receiver.releaseHanging();
    await doomed.stop();
    const [delivery] = await deliveriesOf(user.id);
    expect(delivery).toMatchObject({ status: "delivered", messageId: firstId });
  });

  it("a sync worker process killed (SIGKILL) mid-delivery loses nothing: another sends the same webhook-id once", async () => {
    receiver.mode = { kind: "hang" };
    if (!worker) throw new Error("the worker process was not started");
    const { child, exited } = worker;
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on("data", (chunk: Buffer) => chunk.toString().includes("ready") && resolve());
        child.on("exit", (code) => reject(new Error(`the worker exited early (${code})`)));
        if (child.exitCode !== null) reject(new Error(`the worker exited early (${child.exitCode})`));
        child.stdin.end("go\n");
      });
      const user = await world.newUser();
      await waitFor(() => receiver.requests.length >= 1, "the worker's attempt in flight", 10_000);
      const [firstId] = receiver.requests.map((r) => r.id);
      child.kill("SIGKILL");
      expect(await exited).toBe("SIGKILL");
      const [inFlight] = await deliveriesOf(user.id);
      expect(inFlight).toMatchObject({ status: "sending", messageId: firstId });

      receiver.mode = { kind: "ok" };
      await dispatcher();
      await waitFor(async () => esrtSynced(user.id), "delivered after the worker died", 15_000);
      expect(receiver.received.map((r) => r.id)).toEqual([firstId]);
      const deliveries = await deliveriesOf(user.id);
      expect(deliveries).toHaveLength(1);
      expect(deliveries[0]).toMatchObject({ status: "delivered", messageId: firstId });
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      receiver.releaseHanging();
    }
  });
});
