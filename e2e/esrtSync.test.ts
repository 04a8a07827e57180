import { type Dispatcher, startDispatcher, userSnapshotsConsumer } from "@services/esrt-sync";
import { type RunningConsumers, startConsumers } from "@services/shared/events/consumer";
import { memoryTransport } from "@services/shared/events/memory";
import { type Relay, startRelay } from "@services/shared/events/relay";
import { waitFor } from "@services/shared/events/testing/bus";
import { freePort } from "@services/shared/net";
import { createAdmin, uniqueSuffix } from "@services/shared/testing/factories";
import { changeAccessLevel, esrtSyncStateConsumer } from "@services/user";
import type { Page } from "playwright-core";
import { type ProAppSimulator, startProAppSimulator } from "../scripts/proAppSimulator";
import { axeFindings } from "./support/axe";
import { PHONE, pressEnterOn, pressEscapeInOverlay, sidewaysScroll, waitForToast } from "./support/portal";
import { browserSuite } from "./support/suite";

// The Pro-app sync in Chromium (issue 10): an administrator adds an endpoint pointing at the Pro-app
// simulator and sends a test event; a user registers and, once the simulator acknowledges, sees
// 'Synced with ESRT Pro'; the administrator stops the simulator, the user changes, the delivery
// shows failing, the simulator comes back, a replay delivers it. The sync service runs beside the
// gateway on the file's own database (its relay and dispatcher claim every row they find).

const suite = browserSuite(
  { ESRT_ALLOW_HTTP: "1", ESRT_ALLOW_PRIVATE: "1", ESRT_NATS: "0", ESRT_RETRY_SCALE: "0.2" },
  { isolatedDatabase: true },
);

let relay: Relay;
let consumers: RunningConsumers;
let dispatcher: Dispatcher;
let simulator: ProAppSimulator | undefined;
const transport = memoryTransport();

beforeAll(async () => {
  const db = suite.db();
  relay = await startRelay({ db, transport });
  consumers = await startConsumers({
    db,
    transport,
    consumers: [userSnapshotsConsumer, esrtSyncStateConsumer],
    backoffMs: [50, 100],
  });
  dispatcher = await startDispatcher({ db, pollMs: 100 });
});

afterAll(async () => {
  await dispatcher.stop();
  await consumers.stop();
  await relay.stop();
  await transport.close();
  await simulator?.close();
});

/** The delivery log's rows that name a user. */
const logRows = (page: Page, text: string) =>
  page.getByRole("table", { name: "Deliveries" }).locator("tbody tr").filter({ hasText: text });

describe("Pro-app sync in the browser", () => {
  it("an endpoint at the simulator, a test event, a synced user, an outage, a replay", async () => {
    const port = await freePort();
    const webhookUrl = `http://127.0.0.1:${port}/webhooks`;
    const admin = await createAdmin(suite.db());
    const page = await suite.signedIn(admin, "/admin/esrt-communication");
    await page.getByRole("heading", { level: 1, name: "ESRT Communication" }).waitFor();

    // add the endpoint: its secret is shown once
    await page.getByRole("tab", { name: "Endpoints" }).click();
    await page.getByRole("button", { name: "Add endpoint" }).first().click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("URL").fill(webhookUrl);
    await dialog.getByLabel("Description").fill("The simulator");
    await dialog.getByRole("button", { name: "Add endpoint" }).click();
    const secretBox = dialog.getByRole("textbox", { name: "Signing secret" });
    await secretBox.waitFor();
    const secret = await secretBox.inputValue();
    expect(secret).toMatch(/^whsec_/);
    await dialog.getByRole("button", { name: "I have stored it" }).click();
    simulator = await startProAppSimulator({ port, secrets: [secret] });

    // a test event reaches the simulator, verified with the secret
    const endpoints = page.getByRole("table", { name: "Webhook endpoints" });
    await endpoints.getByText(webhookUrl).waitFor();
    await endpoints.getByRole("button", { name: "Send test event" }).click();
    await waitForToast(page, /test event/i);
    await simulator.waitFor((received) => received.some((r) => r.type === "endpoint.test"), 10_000);

    // a user registers; once the simulator acknowledges, their console says so
    const suffix = uniqueSuffix();
    const visitor = await suite.open();
    const registered = await visitor.page.context().request.post(`${suite.server().url}/api/register`, {
      headers: { Origin: suite.server().url },
      data: {
        username: `sam_${suffix}`,
        email: `sam_${suffix}@example.test`,
        password: "Synced-Up-2026!",
        firstName: "Sam",
        lastName: "Synced",
        userType: "client",
      },
    });
    expect(registered.status()).toBe(201);
    const user = await suite.db().prisma.user.findUniqueOrThrow({ where: { username: `sam_${suffix}` } });
    await simulator.waitFor((received) => received.some((r) => r.uniqueId === user.uniqueId), 10_000);
    await waitFor(
      async () => (await suite.db().prisma.user.findUniqueOrThrow({ where: { id: user.id } })).esrtSynced,
      "synced",
      10_000,
    );
    // the emailed link followed (marked here, as the Pro app already has this version), the console opens
    await suite.db().prisma.user.update({ where: { id: user.id }, data: { emailVerified: true } });
    await visitor.page.goto(`${suite.server().url}/dashboard`);
    await visitor.page.getByText("Synced with ESRT Pro").waitFor();

    // the Pro app goes away; the user changes; the delivery fails and shows so
    await simulator.close();
    simulator = undefined;
    const changed = await changeAccessLevel({
      db: suite.db(),
      actor: { id: admin.id, userType: "mainAdmin" },
      userId: user.id,
      accessLevel: "full",
    });
    await page.getByRole("tab", { name: "Delivery log" }).click();
    await page.getByLabel("User").fill(user.uniqueId);
    const failing = logRows(page, `${changed.version}`).filter({ hasText: "Pending" });
    await waitFor(
      async () => {
        await page.getByRole("button", { name: "Refresh" }).last().click();
        return (
          (await failing.count()) > 0 &&
          /refused|Connection/i.test((await failing.first().textContent()) ?? "")
        );
      },
      "the failing delivery in the log",
      15_000,
    );
    expect((await suite.db().prisma.user.findUniqueOrThrow({ where: { id: user.id } })).esrtSynced).toBe(
      false,
    );

    // the second attempt (the schedule's 5 s scaled to 1 s) fails too: the next is a minute away
    // (5 minutes scaled), so only the replay below can deliver the change while the test runs
    await waitFor(
      async () =>
        (await suite.db().prisma.esrtDelivery.count({
          where: {
            userId: user.id,
            version: changed.version,
            channel: "webhook",
            status: "pending",
            attempts: { gte: 2 },
          },
        })) === 1,
      "the second attempt failed",
      15_000,
    );

    // it comes back; a replay sends the change at once
    simulator = await startProAppSimulator({ port, secrets: [secret] });
    await page.getByRole("button", { name: "Replay failed since…" }).click();
    const replay = page.getByRole("dialog", { name: "Replay failed deliveries" });
    await replay.getByRole("button", { name: "Replay" }).click();
    await waitForToast(page, /queued again/);
    await simulator.waitFor(
      (received) => received.some((r) => r.uniqueId === user.uniqueId && r.version === changed.version),
      10_000,
    );
    await waitFor(
      async () => {
        await page.getByRole("button", { name: "Refresh" }).last().click();
        return (await logRows(page, user.uniqueId).filter({ hasText: "Delivered" }).count()) >= 2;
      },
      "the change delivered in the log",
      10_000,
    );
    await waitFor(
      async () => (await suite.db().prisma.user.findUniqueOrThrow({ where: { id: user.id } })).esrtSynced,
      "synced again",
      10_000,
    );
  }, 90_000);

  it("the sync page, filled, has no WCAG 2.2 A/AA violation, works by keyboard, and fits 375 px", async () => {
    // the deliveries and the endpoint of the test before are on the page
    const admin = await createAdmin(suite.db());
    const page = await suite.signedIn(admin, "/admin/esrt-communication", { bypassCSP: true });
    const log = page.getByRole("table", { name: "Deliveries" });
    await log.locator("tbody tr").first().waitFor();
    expect(await axeFindings(page)).toEqual([]);

    // a delivery's attempts by keyboard: its button, Enter, the drawer; Escape gives focus back
    const open = log.getByRole("button", { name: /show attempts and payload/ }).first();
    await pressEnterOn(open);
    const drawer = page.locator(".esrt-drawer");
    await drawer.getByText("Attempts").first().waitFor();
    expect(await axeFindings(page)).toEqual([]);
    await pressEscapeInOverlay(page);
    await drawer.waitFor({ state: "detached" });
    await expect(open.evaluate((el) => el === el.ownerDocument.activeElement)).resolves.toBe(true);

    // the tabs by arrow keys; a dialog opened by keyboard, audited, closed by Escape
    await page.getByRole("tab", { name: "Delivery log" }).focus();
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("Enter");
    await page.getByRole("table", { name: "Webhook endpoints" }).waitFor();
    const add = page.getByRole("button", { name: "Add endpoint" }).first();
    await pressEnterOn(add);
    await page.getByRole("dialog").getByLabel("URL").waitFor();
    expect(await axeFindings(page)).toEqual([]);
    await pressEscapeInOverlay(page);
    await page.getByRole("dialog").waitFor({ state: "detached" });

    // a phone: no sideways scrolling, no violation
    const phone = await suite.signedIn(admin, "/admin/esrt-communication", PHONE);
    await phone.getByRole("table", { name: "Deliveries" }).locator("tbody tr").first().waitFor();
    expect(await axeFindings(phone)).toEqual([]);
    const overflow = await sidewaysScroll(phone);
    expect(overflow).toBeLessThanOrEqual(0);
  }, 60_000);
});
