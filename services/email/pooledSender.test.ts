import { config, setConfig } from "@services/shared/config";
import type { Db } from "@services/shared/db";
import { settle, waitFor } from "@services/shared/events/testing/bus";
import { type MailTransport, type SmtpPoolOptions, smtpTransport } from "./mailTransport";
import { type EmailSender, type EmailSenderOptions, startEmailSender } from "./sender";
import { startTestSmtp, type TestSmtp, type TestSmtpOptions } from "./testing/smtpServer";
import { emailDatabase, queuePasswordChanged } from "./testing/world";

// The sender against a real SMTP server that greets slowly, like stock smtp-server and many relays
// (100 ms) and then some: pooled connections, the bound on messages in flight, several senders,
// connections that die, and shutdown. Counts are read on the server.

let world: Awaited<ReturnType<typeof emailDatabase>>;
let db: Db;
const servers: TestSmtp[] = [];
const senders: EmailSender[] = [];
const FAST_RETRY = { baseMs: 100, maxMs: 300, maxAttempts: 8 };
/** a greeting after smtp-server's own 100 ms and 100 more */
const SLOW_GREETING = { greetingDelayMs: 100 };

beforeAll(async () => {
  world = await emailDatabase();
  db = world.db;
});
afterAll(async () => {
  await world.drop();
});
afterEach(async () => {
  await Promise.all(senders.splice(0).map((s) => s.stop()));
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});

async function smtpServer(options: TestSmtpOptions = {}): Promise<TestSmtp> {
  const server = await startTestSmtp({ ...SLOW_GREETING, ...options });
  servers.push(server);
  return server;
}

interface SenderSetup extends Partial<EmailSenderOptions> {
  smtp: TestSmtp;
  pool: SmtpPoolOptions | false;
  timeoutMs?: number;
}

/** The real SMTP transport, wrapped to count the sends it has in progress at once. */
function countingTransport(inner: MailTransport): MailTransport & { peak(): number } {
  let current = 0;
  let peak = 0;
  return {
    async send(mail) {
      current++;
      peak = Math.max(peak, current);
      try {
        return await inner.send(mail);
      } finally {
        current--;
      }
    },
    close: () => inner.close(),
    peak: () => peak,
  };
}

async function sender(setup: SenderSetup): Promise<EmailSender> {
  const { smtp, pool, timeoutMs, ...options } = setup;
  const started = await startEmailSender({
    db,
    transport: smtpTransport({ url: smtp.url, timeoutMs: timeoutMs ?? 5000, pool }),
    pollMs: 100,
    retry: FAST_RETRY,
    ...options,
  });
  senders.push(started);
  return started;
}

function addresses(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}${i}@client.test`);
}

async function sentCount(to: string[]): Promise<number> {
  return db.prisma.emailMessage.count({ where: { toAddress: { in: to }, status: "sent" } });
}

async function allSent(to: string[], timeoutMs = 20_000): Promise<void> {
  await waitFor(async () => (await sentCount(to)) === to.length, `${to.length} sent`, timeoutMs);
}

/** Each address received exactly one message. */
function expectOneEach(smtp: TestSmtp, to: string[]): void {
  const counts = to.map((address) => smtp.to(address).length);
  expect(counts).toEqual(to.map(() => 1));
}

describe("email sender with pooled SMTP connections", () => {
  it("sends many messages over few connections", async () => {
    const smtp = await smtpServer();
    const to = addresses("pooled", 60);
    await queuePasswordChanged(db, to);
    await sender({ smtp, pool: { maxConnections: 2, maxMessages: 100 }, concurrency: 4 });
    await allSent(to);
    await settle(200);
    expectOneEach(smtp, to);
    expect(smtp.connections).toBeGreaterThanOrEqual(1);
    expect(smtp.connections).toBeLessThanOrEqual(2);
  });

  it("opens a connection per message when the pool is off (the old sender)", async () => {
    const smtp = await smtpServer();
    const to = addresses("unpooled", 6);
    await queuePasswordChanged(db, to);
    await sender({ smtp, pool: false, concurrency: 1 });
    await allSent(to);
    expectOneEach(smtp, to);
    expect(smtp.connections).toBe(6);
  });

  it("replaces a connection after maxMessages messages", async () => {
    const smtp = await smtpServer();
    const to = addresses("recycled", 9);
    await queuePasswordChanged(db, to);
    await sender({ smtp, pool: { maxConnections: 1, maxMessages: 3 }, concurrency: 2 });
    await allSent(to);
    expectOneEach(smtp, to);
    expect(smtp.connections).toBe(3);
  });

  it.each([
    ["pooled", { maxConnections: 8, maxMessages: 100 }],
    ["unpooled", false],
  ] as const)("never has more messages in flight than its concurrency (%s)", async (name, pool) => {
    const smtp = await smtpServer({ dataDelayMs: 40 });
    const to = addresses(`bounded-${name}-`, 24);
    await queuePasswordChanged(db, to);
    const transport = countingTransport(smtpTransport({ url: smtp.url, timeoutMs: 5000, pool }));
    senders.push(await startEmailSender({ db, transport, pollMs: 100, retry: FAST_RETRY, concurrency: 3 }));
    await allSent(to);
    expectOneEach(smtp, to);
    // the sender hands the transport three at a time, and the server never receives more at once
    expect(transport.peak()).toBe(3);
    expect(smtp.peakConcurrentMessages).toBeLessThanOrEqual(3);
    expect(smtp.peakConcurrentMessages).toBeGreaterThanOrEqual(2);
  });

  it("with two pooled senders running at once, sends each message exactly once", async () => {
    const smtp = await smtpServer({ dataDelayMs: 5 });
    const to = addresses("two-senders", 40);
    await queuePasswordChanged(db, to);
    const pool = { maxConnections: 2, maxMessages: 100 };
    await Promise.all([
      sender({ smtp, pool, concurrency: 4, batchSize: 3 }),
      sender({ smtp, pool, concurrency: 4, batchSize: 3 }),
    ]);
    await allSent(to);
    await settle(300);
    expectOneEach(smtp, to);
    const rows = await db.prisma.emailMessage.findMany({ where: { toAddress: { in: to } } });
    expect(rows.map((r) => r.attempts)).toEqual(to.map(() => 1));
    expect(smtp.connections).toBeLessThanOrEqual(4);
  });

  it("retries a message whose connection died while it was being sent, and sends the others", async () => {
    const smtp = await smtpServer({ cutFirstDataTo: ["cut@client.test"] });
    const others = addresses("beside-cut", 5);
    const to = ["cut@client.test", ...others];
    await queuePasswordChanged(db, to);
    await sender({ smtp, pool: { maxConnections: 2, maxMessages: 100 }, concurrency: 2 });
    await allSent(to);
    await settle(200);
    expectOneEach(smtp, to);
    const [cut] = await db.prisma.emailMessage.findMany({ where: { toAddress: "cut@client.test" } });
    expect(cut?.attempts).toBe(2);
    expect(cut?.lastError).toBeNull();
    // the dead connection was replaced
    expect(smtp.connections).toBeGreaterThanOrEqual(2);
  });

  it("still fails a message at once when the server refuses it for good (5xx), and keeps the connection", async () => {
    const smtp = await smtpServer({ refuse: ["refused@client.test"] });
    const to = addresses("after-refusal", 3);
    await queuePasswordChanged(db, ["refused@client.test", ...to]);
    await sender({ smtp, pool: { maxConnections: 1, maxMessages: 100 }, concurrency: 1 });
    await allSent(to);
    await waitFor(
      async () =>
        (await db.prisma.emailMessage.count({
          where: { toAddress: "refused@client.test", status: "failed" },
        })) === 1,
      "the refused message failed",
    );
    const [refused] = await db.prisma.emailMessage.findMany({ where: { toAddress: "refused@client.test" } });
    expect(refused?.attempts).toBe(1);
    expect(refused?.lastError).toContain("Mailbox unavailable");
    expectOneEach(smtp, to);
    expect(smtp.connections).toBe(1);
  });

  it("wakes at once when a message is queued, without waiting for its poll", async () => {
    const smtp = await smtpServer();
    await sender({ smtp, pool: { maxConnections: 1, maxMessages: 100 }, pollMs: 600_000 });
    await settle(200);
    await queuePasswordChanged(db, ["woken@client.test"]);
    await waitFor(() => smtp.to("woken@client.test").length === 1, "the message", 10_000);
  });

  it("on stop, finishes the messages in flight, then closes the pool's connections", async () => {
    const smtp = await smtpServer({ dataDelayMs: 400 });
    const first = addresses("before-stop", 2);
    await queuePasswordChanged(db, first);
    // a long timeout, so the pool's idle timer would keep the connections open for many seconds
    const running = await sender({ smtp, pool: { maxConnections: 2, maxMessages: 100 }, timeoutMs: 60_000 });
    await allSent(first);
    await settle(300);
    expect(smtp.openConnections).toBeGreaterThanOrEqual(1);

    const inFlight = addresses("during-stop", 2);
    await queuePasswordChanged(db, inFlight);
    await waitFor(() => smtp.messagesInProgress >= 1, "a message in DATA");
    await running.stop();
    expect(await sentCount(inFlight)).toBe(2);
    expectOneEach(smtp, [...first, ...inFlight]);
    await waitFor(() => smtp.openConnections === 0, "the pool's connections closed", 1500);
  });

  it("takes the pool size from the configuration when it makes its own transport", async () => {
    const smtp = await smtpServer();
    const original = config();
    setConfig({
      ...original,
      SMTP_URL: smtp.url,
      SMTP_POOL: true,
      SMTP_MAX_CONNECTIONS: 1,
      SMTP_MAX_MESSAGES: 100,
      EMAIL_SEND_CONCURRENCY: 4,
    });
    try {
      senders.push(await startEmailSender({ db, pollMs: 100, retry: FAST_RETRY }));
    } finally {
      setConfig(original);
    }
    const to = addresses("configured", 8);
    await queuePasswordChanged(db, to);
    await allSent(to);
    expectOneEach(smtp, to);
    expect(smtp.connections).toBe(1);
  });

  it("refuses a concurrency that is not a positive integer", async () => {
    await expect(startEmailSender({ db, transport: null, concurrency: 0 })).rejects.toThrow(
      "concurrency must be a positive integer",
    );
    await expect(startEmailSender({ db, transport: null, concurrency: 1.5 })).rejects.toThrow(RangeError);
  });
});
