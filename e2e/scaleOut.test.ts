import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { alternatingTusUpload } from "@gateway/testing/uploadHarness";
import { jetstreamManager } from "@nats-io/jetstream";
import { BUSINESS_TIME_ZONE } from "@schema/validation/appointment";
import { cloudStorageRow } from "@services/document/testing";
import { startTestSmtp } from "@services/email/testing";
import { createEndpoint } from "@services/esrt-sync";
import { testReceiver } from "@services/esrt-sync/testing";
import { config, setConfig } from "@services/shared/config";
import { connectPostgres, type Db } from "@services/shared/db";
import { connectNats } from "@services/shared/nats";
import { migratedScratchDatabase } from "@services/shared/testing/db";
import { createAdmin, createUser, TEST_PASSWORD } from "@services/shared/testing/factories";
import {
  buildRuntime,
  deployedNodeArgs,
  type ServerProcess,
  startServer,
} from "@services/shared/testing/processes";
import { startS3rver } from "@services/shared/testing/s3rver";
import { DateTime } from "luxon";
import { cookieOf, waitFor } from "./support/http";

// The portal as several processes on shared engines (issue 22): two gateways (both relaying the
// outbox) and two workers each running every service (WORKERS=all: two workers of each service), in
// production mode on the machine's PostgreSQL, Redis and NATS with a database, key prefix and
// streams of their own, a real SMTP server, a Pro-app webhook receiver and s3rver as the cloud store.
// Mixed traffic goes through both gateways as a load balancer without affinity would send it; midway
// one worker is killed (SIGKILL) and started again, and one gateway is stopped (SIGTERM) after the
// balancer took it out of rotation. The short ack wait and leases below stand for the defaults
// (30 s, 120 s, 45 s), which bound the recovery the same way (docs/ARCHITECTURE.md).

const CLIENTS = 12;
const REQUEST_TIMEOUT_MS = 10_000;

interface Answer {
  gateway: string;
  what: string;
  status: number;
  /** the body's message for a refusal ("" for a success, the error for a request that failed) */
  message: string;
}

describe("the portal as several processes (two gateways, two workers of each service)", () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step().catch(() => undefined);
  });

  it("keeps every request answered, sends every email and webhook once and finishes the upload once, through a worker's crash and a gateway's stop", async () => {
    const began = Date.now();
    const marks: Record<string, number> = {};
    const mark = (label: string) => {
      marks[label] = Date.now() - began;
    };
    const [scratch, smtp, s3, runtime] = await Promise.all([
      migratedScratchDatabase(),
      startTestSmtp(),
      startS3rver(),
      buildRuntime(),
    ]);
    cleanup.push(
      () => scratch.drop(),
      () => smtp.stop(),
      () => s3.stop(),
      async () => runtime.remove(),
    );
    const db: Db = await connectPostgres(scratch.url);
    cleanup.push(() => db.close());
    let webhookSecret = "";
    const receiver = await testReceiver(() => webhookSecret);
    cleanup.push(() => receiver.close());
    const dataDirs: string[] = [];
    const dataDir = () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), "portal-scale-"));
      dataDirs.push(dir);
      return dir;
    };
    cleanup.push(async () => {
      for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
    });

    const run = `${process.env.TEST_RUN_ID ?? "local"}${Math.floor(Math.random() * 1e6)}`;
    const env: Record<string, string> = {
      NODE_ENV: "production",
      LOG_LEVEL: "info",
      DATABASE_URL: scratch.url,
      REDIS_PREFIX: `scale:${run}:`,
      EVENT_STREAM: `PORTAL_SCALE_${run}`,
      SUBJECT_PREFIX: `scale${run}`,
      PRO_APP_URL: "https://pro.scale.test",
      ESRT_NATS: "0",
      SMTP_URL: smtp.url,
      TEAM_EMAIL: "team@scale.test",
      TWO_FACTOR_REQUIRED_FOR_ADMINS: "0",
      ESRT_ALLOW_HTTP: "1",
      ESRT_ALLOW_PRIVATE: "1",
      ESRT_WEBHOOK_TIMEOUT_MS: "3000",
      EVENT_ACK_WAIT_MS: "3000",
      // above the SMTP timeout (15 s): a sender still sending a message never loses it to another
      EMAIL_LEASE_MS: "16000",
      ESRT_LEASE_MS: "4000",
    };
    const nodeArgs = deployedNodeArgs();
    const gateway = (name: string, port?: number) =>
      startServer({
        name,
        script: "gateway/src/main.ts",
        env: { ...env, WORKERS: "none", RELAY: "1", DATA_DIR: dataDir() },
        readyPath: "/readyz",
        nodeArgs,
        runtime,
        port,
        timeoutMs: 90_000,
      });
    const worker = (name: string) =>
      startServer({
        name,
        script: "services/worker.ts",
        env: { ...env, WORKERS: "all", RELAY: "0", DATA_DIR: dataDir() },
        readyLine: /worker started/,
        nodeArgs,
        runtime,
        timeoutMs: 90_000,
      });
    // the production bundles (as the image runs them), the four started together
    const startedAt = Date.now();
    const starting = await Promise.allSettled([
      gateway("gateway A"),
      gateway("gateway B"),
      worker("worker 1"),
      worker("worker 2"),
    ]);
    const processes = starting.flatMap((p) => (p.status === "fulfilled" ? [p.value] : []));
    cleanup.push(async () => {
      await Promise.all(processes.map((p) => p.stop()));
    });
    for (const p of starting) if (p.status === "rejected") throw p.reason;
    const [a, b, w1] = processes as [ServerProcess, ServerProcess, ServerProcess, ServerProcess];
    const startupMs = Date.now() - startedAt;
    mark("processes ready");

    // the cloud store (s3rver) and the Pro app's endpoint, as an administrator sets them
    setConfig({ ...config(), ESRT_ALLOW_HTTP: true, ESRT_ALLOW_PRIVATE: true });
    const { settings } = s3;
    await db.prisma.storageConfig.updateMany({ data: cloudStorageRow(settings) });
    const admin = await createAdmin(db, { userType: "mainAdmin" });
    webhookSecret = (await createEndpoint({ db, actorId: admin.id, url: receiver.url })).secret;
    const clients = await Promise.all(
      Array.from({ length: CLIENTS }, () => createUser(db, { userType: "client" })),
    );

    // the load balancer: round robin over the gateways in rotation
    const rotation = [a, b];
    let turn = 0;
    const next = () => rotation[turn++ % rotation.length] ?? a;
    const answers: Answer[] = [];
    const send = async (
      what: string,
      target: ServerProcess,
      pathName: string,
      init: { method?: string; cookie?: string; body?: unknown; address?: string } = {},
    ): Promise<Response | null> => {
      try {
        const res = await fetch(`${target.url}${pathName}`, {
          method: init.method ?? "GET",
          headers: {
            ...(init.cookie ? { cookie: init.cookie } : {}),
            ...(init.body === undefined ? {} : { "content-type": "application/json" }),
            ...(init.address ? { "x-forwarded-for": init.address } : {}),
          },
          body: init.body === undefined ? undefined : JSON.stringify(init.body),
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
        const text = await res.clone().text();
        const graphqlError = text.includes('"errors"');
        answers.push({
          gateway: target.name,
          what,
          status: graphqlError && res.ok ? 299 : res.status,
          message: res.ok && !graphqlError ? "" : text.slice(0, 200),
        });
        return res;
      } catch (err) {
        answers.push({ gateway: target.name, what, status: 0, message: String(err) });
        return null;
      }
    };

    // sign-ins through either gateway; each session then works on the other one
    const cookies: string[] = [];
    await Promise.all(
      clients.map(async (client, i) => {
        const via = i % 2 === 0 ? a : b;
        const res = await send("sign-in", via, "/api/login", {
          method: "POST",
          body: { login: client.username, password: TEST_PASSWORD },
          address: `10.22.${i}.1`,
        });
        cookies[i] = res ? cookieOf(res) : "";
        const other = via === a ? b : a;
        const me = await send("session on the other gateway", other, "/api/user", { cookie: cookies[i] });
        expect([i, me?.status]).toEqual([i, 200]);
      }),
    );
    const adminLogin = await send("admin sign-in", b, "/api/login", {
      method: "POST",
      body: { login: admin.username, password: TEST_PASSWORD },
      address: "10.22.200.1",
    });
    const adminCookie = adminLogin ? cookieOf(adminLogin) : "";

    // free slots of the weeks ahead, one per booking
    let day = DateTime.now().setZone(BUSINESS_TIME_ZONE).plus({ days: 30 });
    const slots: string[] = [];
    while (slots.length < CLIENTS) {
      while (day.weekday > 5) day = day.plus({ days: 1 });
      const res = await send(
        "availability",
        next(),
        `/api/appointments/availability?from=${day.toISODate()}`,
        {
          cookie: cookies[0],
        },
      );
      const days = (await res?.json()) as { date: string; slots: { dateTime: string; taken: boolean }[] }[];
      for (const slot of days[0]?.slots ?? []) if (!slot.taken) slots.push(slot.dateTime);
      day = day.plus({ days: 1 });
    }
    const book = (i: number) =>
      send("booking", next(), "/api/appointments", {
        method: "POST",
        cookie: cookies[i],
        body: { userId: clients[i]?.id, appointmentType: "phone", dateTime: slots[i] },
      });
    const changeAccess = (i: number) =>
      send("admin change", next(), "/graphql", {
        method: "POST",
        cookie: adminCookie,
        body: {
          query:
            "mutation($id: Int!) { changeUserAccessLevel(userId: $id, accessLevel: full) { __typename ... on MutationChangeUserAccessLevelSuccess { data { id } } ... on AppError { message } } }",
          variables: { id: clients[i]?.id },
        },
      });
    const browse = (i: number) =>
      Promise.all([
        send("current user", next(), "/api/user", { cookie: cookies[i] }),
        send("my appointments", next(), "/api/appointments/mine", { cookie: cookies[i] }),
        send("documents", next(), "/graphql", {
          method: "POST",
          cookie: cookies[i],
          body: { query: "{ myDocuments { nodes { id title } } }" },
        }),
      ]);

    // the NATS consumers' backlog, the outbox, and the emails and deliveries still to send
    const nc = await connectNats(process.env.NATS_URL ?? "nats://127.0.0.1:4222");
    cleanup.push(async () => {
      const jsm = await jetstreamManager(nc);
      await jsm.streams.delete(env.EVENT_STREAM ?? "").catch(() => undefined);
      await nc.close();
    });
    const jsm = await jetstreamManager(nc);
    const drained = async (): Promise<boolean> => {
      const [row] = await db.prisma.$queryRaw<{ outbox: bigint; emails: bigint; deliveries: bigint }[]>`
        SELECT (SELECT count(*) FROM outbox_events WHERE "publishedAt" IS NULL) AS outbox,
               (SELECT count(*) FROM email_messages WHERE status = 'queued') AS emails,
               (SELECT count(*) FROM esrt_deliveries WHERE status IN ('pending', 'sending')) AS deliveries`;
      if (!row || row.outbox + row.emails + row.deliveries > 0n) return false;
      const consumers = await jsm.consumers.list(env.EVENT_STREAM ?? "").next();
      return consumers.every((c) => c.num_pending + c.num_ack_pending === 0);
    };

    // the first half: bookings, admin changes and browsing through both gateways, and the upload's
    // first PATCHes alternating between them
    const half = CLIENTS / 2;
    await Promise.all(
      Array.from({ length: half }, (_, i) => Promise.all([book(i), changeAccess(i), browse(i)])),
    );
    const uploadData = Buffer.from(
      "Quarterly receivables, ünïcödé included, one line after another.\n".repeat(6000),
    );
    let stoppedB = 0;
    let reachedThirdPatch = (): void => undefined;
    const firstPatchesDone = new Promise<void>((resolve) => {
      reachedThirdPatch = resolve;
    });
    const upload = alternatingTusUpload({
      urls: [a.url, b.url],
      cookie: cookies[0] ?? "",
      data: uploadData,
      fileName: "receivables.txt",
      title: "Scale-out upload",
      chunkSize: 64 * 1024,
      beforeRequest: async (i) => {
        // from the third PATCH on, gateway B is out of rotation (stopped below)
        if (i < 3) return undefined;
        reachedThirdPatch();
        await waitFor("gateway B out of rotation", () => stoppedB > 0, 60_000);
        return 0;
      },
    });

    // a crash: worker 1 is killed while the burst it shares is in flight, then started again
    const burst = Promise.all(
      Array.from({ length: half }, (_, j) => Promise.all([book(half + j), browse(half + j)])),
    );
    const killedAt = Date.now();
    mark("worker 1 killed");
    await w1.kill();
    const restart = worker("worker 1 (again)");
    await burst;
    // a gateway stops (once the upload's PATCHes reached both): the balancer takes it out of
    // rotation first, then it gets SIGTERM
    await firstPatchesDone;
    mark("burst answered");
    rotation.splice(rotation.indexOf(b), 1);
    const stopping = b.stop();
    stoppedB = Date.now();
    await Promise.all(
      Array.from({ length: half }, (_, j) => Promise.all([changeAccess(half + j), browse(half + j)])),
    );
    await stopping;
    mark("gateway B stopped");
    const restarted = await restart;
    processes.push(restarted);
    const restartedMs = Date.now() - killedAt;
    mark("worker 1 restarted");
    const uploaded = await upload;
    mark("upload finished");
    const drainStarted = Date.now();
    await waitFor("the work left by the killed worker", drained, 60_000);
    const recoveryMs = Date.now() - drainStarted;
    const drainedAfterKillMs = Date.now() - killedAt;

    mark("drained");
    process.stdout.write(`scale-out progress: ${JSON.stringify(marks)}\n`);
    process.stdout.write(
      `scale-out deliveries: ${smtp.received.length} emails received, ${receiver.received.length} webhooks\n`,
    );
    // every request: a success or a clear refusal, never a 500, a hang or a reset
    const refused = answers.filter((x) => x.status >= 300);
    const unclear = answers.filter((x) => x.status === 0 || (x.status >= 500 && x.status !== 503));
    expect(unclear).toEqual([]);
    for (const x of refused) expect(x.message).not.toBe("");
    // the session made on B (now stopped) still works on A
    const onA = await send("session from B on A", a, "/api/user", { cookie: cookies[1] });
    expect(onA?.status).toBe(200);

    // the upload: PATCHes on both gateways, then A alone; one document
    expect(uploaded.status).toBe(200);
    expect(new Set(uploaded.answers.map((x) => x.gateway))).toEqual(new Set([0, 1]));
    expect(await db.prisma.document.count({ where: { title: "Scale-out upload" } })).toBe(1);
    expect(await db.prisma.upload.count()).toBe(0);

    // every email once: as many messages received as rows sent, none twice
    const sentRows = await db.prisma.emailMessage.count({ where: { status: "sent" } });
    const appointments = await db.prisma.appointment.count();
    expect(await db.prisma.emailMessage.count({ where: { status: { not: "sent" } } })).toBe(0);
    // each message went out once, as its Message-ID (email-<row id>@..., the same at every attempt)
    // identifies it: every row's id arrived, and no content arrived under two ids. A message the
    // killed worker had handed to SMTP but not yet recorded is sent again by the survivor under the
    // same id, which mail systems take as the same message (docs/ARCHITECTURE.md); a live sender
    // never loses one it is still sending (the lease outlasts the SMTP timeout).
    const sentIds = (
      await db.prisma.emailMessage.findMany({ where: { status: "sent" }, select: { messageId: true } })
    ).map((m) => m.messageId);
    const receivedIds = new Set(smtp.received.map((m) => m.messageId));
    expect([...receivedIds].sort()).toEqual([...sentIds].sort());
    const contentIds = new Map<string, Set<string>>();
    for (const m of smtp.received) {
      const key = `${m.to.join(",")}|${m.subject}|${m.text}`;
      contentIds.set(key, (contentIds.get(key) ?? new Set()).add(m.messageId));
    }
    expect([...contentIds.values()].filter((ids) => ids.size > 1)).toEqual([]);
    const emailDuplicates = smtp.received.length - receivedIds.size;
    expect(receivedIds.size).toBe(sentRows);
    expect(appointments).toBe(answers.filter((x) => x.what === "booking" && x.status === 201).length);
    // every client who booked got their email
    for (const client of clients)
      expect([client.email, smtp.to(client.email).length > 0]).toEqual([client.email, true]);

    // every webhook once: one per admin change, each webhook-id once
    const ids = receiver.received.map((r) => r.id);
    const changes = answers.filter((x) => x.what === "admin change" && x.status === 200).length;
    expect(changes).toBe(CLIENTS);
    const webhookDuplicates = ids.length - new Set(ids).size;
    expect(new Set(ids).size).toBe(changes);

    const figures = {
      processes: "2 gateways (RELAY=1), 2 workers (WORKERS=all)",
      startupMs,
      requests: answers.length,
      refused: refused.map((x) => `${x.what} ${x.status}`),
      unclear: unclear.length,
      emails: smtp.received.length,
      emailDuplicates,
      webhooks: ids.length,
      webhookDuplicates,
      uploadPatches: uploaded.answers.length - 1,
      workerRestartMs: restartedMs,
      drainedAfterKillMs,
      lastWaitAfterTrafficMs: recoveryMs,
      totalMs: Date.now() - began,
      marks,
    };
    process.stdout.write(`scale-out figures: ${JSON.stringify(figures)}\n`);
  }, 240_000);
});
