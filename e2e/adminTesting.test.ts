import { ROUND_TRIP_CONSUMERS, SYNC_STATE_CONSUMERS } from "@services/diagnostics/testing";
import { startTestSmtp, type TestSmtp } from "@services/email/testing";
import { services } from "@services/registry";
import { config, setConfig } from "@services/shared/config";
import { type RunningConsumers, startConsumers } from "@services/shared/events/consumer";
import { memoryTransport } from "@services/shared/events/memory";
import { type Relay, startRelay } from "@services/shared/events/relay";
import type { User } from "@services/shared/generated/prisma/client";
import { connectRedis, type RedisClient } from "@services/shared/redis";
import { createAdmin, createUser } from "@services/shared/testing/factories";
import type { Page } from "playwright-core";
import { axeFindings } from "./support/axe";
import { PHONE, sidewaysScroll, tabTo } from "./support/portal";
import { browserSuite } from "./support/suite";

// Testing Tools in Chromium (issue 12), on a database of the file's own: an admin sees every
// dependency healthy (the run's PostgreSQL and Redis, a test SMTP server, local storage, the
// in-process event bus as an embedded stand-in), runs an event round trip and sees every service's
// consumer answer, and retries a dead letter; the page passes axe, works by keyboard and fits
// 375 px; a userAdmin reads 'Permission Denied'.

const transport = memoryTransport();
let redis: RedisClient | undefined;

const suite = browserSuite(
  {},
  {
    isolatedDatabase: true,
    probes: {
      readiness: {
        database: { mode: "postgres", check: () => suite.db().ping(400) },
        sessions: {
          mode: "redis",
          check: async () => {
            if (!redis) throw new Error("not connected");
            await redis.ping();
          },
        },
        events: { mode: "in-process", check: async () => undefined },
      },
      transport,
    },
  },
);

let relay: Relay;
let consumers: RunningConsumers;
let smtp: TestSmtp;
let savedSmtp: string | undefined;

beforeAll(async () => {
  const db = suite.db();
  const url = process.env.REDIS_URL;
  if (!url) throw new Error("REDIS_URL is unset");
  redis = await connectRedis(url);
  smtp = await startTestSmtp();
  savedSmtp = config().SMTP_URL;
  setConfig({ ...config(), SMTP_URL: smtp.url });
  relay = await startRelay({ db, transport });
  consumers = await startConsumers({
    db,
    transport,
    consumers: [...ROUND_TRIP_CONSUMERS, ...SYNC_STATE_CONSUMERS],
  });
});

afterAll(async () => {
  await consumers.stop();
  await relay.stop();
  await transport.close();
  await smtp.stop();
  redis?.destroy();
  setConfig({ ...config(), SMTP_URL: savedSmtp });
});

const dependencyRow = (page: Page, key: string) => page.locator(`tr[data-dependency="${key}"]`);

describe("Testing Tools", () => {
  /** An admin's page on Testing Tools, shared by the tests below that read it or press a button. */
  let reader: User | undefined;
  const readerPage = async (): Promise<Page> => {
    reader ??= await createAdmin(suite.db());
    return suite.kept(reader, "/admin/testing");
  };

  it("shows every dependency healthy and each service's consumer", async () => {
    const page = await readerPage();
    await page.getByRole("heading", { level: 1, name: "Testing Tools" }).waitFor();
    for (const key of ["database", "sessions", "events", "smtp", "storage"]) {
      await dependencyRow(page, key).getByText("Healthy", { exact: true }).waitFor();
    }
    await dependencyRow(page, "events")
      .getByText(/Embedded stand-in/)
      .waitFor();
    await expect(dependencyRow(page, "database").textContent()).resolves.toMatch(/PostgreSQL[\s\S]*\d+ ms/);
    const consumersTable = page.getByRole("table", { name: "Event consumers" });
    for (const c of ROUND_TRIP_CONSUMERS) {
      await consumersTable.locator("tr").filter({ hasText: c.name }).getByText("Consuming").waitFor();
    }
    // the services this test does not run are named as never started
    await consumersTable
      .locator("tr")
      .filter({ hasText: "email_welcome" })
      .getByText("Never started")
      .waitFor();
  });

  it("runs an event round trip and shows every consumer's answer", async () => {
    const page = await readerPage();
    await page.getByRole("button", { name: "Send a test event" }).click();
    await page.getByText("Every service handled the test event.").waitFor({ timeout: 15_000 });
    const answers = page.getByRole("table", { name: "Round trip answers" });
    for (const c of ROUND_TRIP_CONSUMERS) {
      await expect(answers.locator(`tr[data-consumer="${c.name}"]`).textContent()).resolves.toMatch(/\d+ ms/);
    }
    await expect(answers.locator("tbody tr").count()).resolves.toBe(Object.keys(services).length);
  });

  it("retries a dead letter by keyboard; the page passes axe and fits 375 px", async () => {
    const db = suite.db();
    const admin = await createAdmin(db);
    const client = await createUser(db, { userType: "client" });
    const eventId = "0190f0f0-0000-7000-8000-0000000000aa";
    const envelope = {
      id: eventId,
      type: "esrt.user_sync_changed",
      version: 1,
      occurredAt: new Date().toISOString(),
      actor: null,
      correlationId: eventId,
      payload: {
        userId: client.id,
        uniqueId: client.uniqueId,
        latestVersion: 1,
        acknowledgedVersion: 1,
        synced: true,
        seq: 3,
      },
    };
    await db.prisma.$executeRaw`
      INSERT INTO dead_letters (consumer, "eventId", subject, envelope, error, attempts)
      VALUES ('user_esrt_sync_state', ${eventId}::uuid, 'x.esrt.user_sync_changed', ${JSON.stringify(envelope)}::jsonb,
        'Error: database was away', 5)`;

    const page = await suite.signedIn(admin, "/admin/testing", { bypassCSP: true });
    const table = page.getByRole("table", { name: "Dead letters" });
    await table.getByText("Error: database was away").waitFor();
    await dependencyRow(page, "database").getByText("Healthy").waitFor();
    expect(await axeFindings(page)).toEqual([]);

    const retry = page.getByRole("button", { name: "Retry esrt.user_sync_changed for user_esrt_sync_state" });
    await page.getByRole("heading", { level: 1, name: "Testing Tools" }).click();
    expect(await tabTo(page, retry, 60)).toBe(true);
    await page.keyboard.press("Enter");
    await page.getByText("No dead letters: every event was handled.").waitFor();
    expect((await db.prisma.user.findUniqueOrThrow({ where: { id: client.id } })).esrtSynced).toBe(true);
    expect(
      await db.prisma.auditLog.count({
        where: { action: "diagnostics.dead_letter_retried", actorId: admin.id },
      }),
    ).toBe(1);

    const phone = await suite.signedIn(admin, "/admin/testing", PHONE);
    await dependencyRow(phone, "database").getByText("Healthy").waitFor();
    await phone.getByRole("button", { name: "Send a test event" }).click();
    await phone.getByText("Every service handled the test event.").waitFor({ timeout: 15_000 });
    expect(await axeFindings(phone)).toEqual([]);
    expect(await sidewaysScroll(phone)).toBeLessThanOrEqual(0);
  }, 60_000);

  it("generates demo data and removes exactly that again", async () => {
    const db = suite.db();
    const admin = await createAdmin(db);
    const realUsers = await db.prisma.user.count();
    const page = await suite.signedIn(admin, "/admin/testing");
    await page.getByText("No demo data.").waitFor();
    await page.getByRole("button", { name: "Generate demo data" }).click();
    await page.getByText("8 demo users exist, 5 of them clients.").waitFor();
    await page.getByText("Demo data generated").waitFor();
    expect(await db.prisma.user.count({ where: { isDemo: true } })).toBe(8);
    expect(await db.prisma.document.count({ where: { user: { isDemo: true } } })).toBe(10);
    // the generate button waits until the demo data is removed
    await expect(page.getByRole("button", { name: "Generate demo data" }).isDisabled()).resolves.toBe(true);

    await page.getByRole("button", { name: "Remove demo data" }).click();
    const confirm = page.getByRole("alertdialog");
    await confirm
      .getByText("Remove the 8 demo users with their appointments, documents and notes?")
      .waitFor();
    await confirm.getByRole("button", { name: "Remove demo data" }).click();
    await page.getByText("No demo data.").waitFor();
    expect(await db.prisma.user.count({ where: { isDemo: true } })).toBe(0);
    expect(await db.prisma.user.count()).toBe(realUsers);
  });

  it("tells a userAdmin 'Permission Denied'", async () => {
    const userAdmin = await createAdmin(suite.db(), { userType: "userAdmin" });
    const page = await suite.signedIn(userAdmin, "/admin/testing");
    await page.getByRole("alert").filter({ hasText: "Permission Denied" }).waitFor();
    await expect(page.getByRole("heading", { level: 1, name: "Testing Tools" }).count()).resolves.toBe(0);
    await expect(page.getByRole("table", { name: "Dependencies" }).count()).resolves.toBe(0);
  });
});
