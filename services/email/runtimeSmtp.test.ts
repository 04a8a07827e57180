import { config, setConfig } from "@services/shared/config";
import type { Db } from "@services/shared/db";
import { settle, waitFor } from "@services/shared/events/testing/bus";
import { createAdmin } from "@services/shared/testing/factories";
import { updateEmailSettings } from "./emailSettings";
import { type EmailSender, startEmailSender } from "./sender";
import { startTestSmtp, type TestSmtp } from "./testing/smtpServer";
import { emailDatabase, queuePasswordChanged } from "./testing/world";

// The SMTP server of the email settings at run time (issue 12): a sender started without SMTP_URL
// reads the settings at each claim, so a changed server takes the next message without a restart,
// the old pool closes, Reply-To is set, and messages queued while the server is down all arrive
// once it is back, each once. Real SMTP servers (smtp-server), a real database.

let world: Awaited<ReturnType<typeof emailDatabase>>;
let db: Db;
let actor: { id: number; name: string };
const servers: TestSmtp[] = [];
let sender: EmailSender | undefined;
const FAST_RETRY = { baseMs: 100, maxMs: 400, maxAttempts: 50 };

beforeAll(async () => {
  world = await emailDatabase();
  db = world.db;
  // no SMTP_URL: the sender follows the settings
  setConfig({ ...config(), SMTP_URL: undefined });
  const admin = await createAdmin(db);
  actor = { id: admin.id, name: "Run Time" };
});
afterAll(async () => {
  await sender?.stop();
  await Promise.all(servers.map((s) => s.stop()));
  await world.drop();
});

async function smtpServer(options: Parameters<typeof startTestSmtp>[0] = {}): Promise<TestSmtp> {
  const smtp = await startTestSmtp(options);
  servers.push(smtp);
  return smtp;
}

const portOf = (smtp: TestSmtp) => Number(new URL(smtp.url).port);

/** Points the settings at `smtp` as an administrator would. */
function useServer(smtp: TestSmtp | null, credentials?: { user: string; pass: string }) {
  return updateEmailSettings({
    db,
    actor,
    input: {
      smtpHost: smtp ? "127.0.0.1" : undefined,
      smtpPort: smtp ? portOf(smtp) : undefined,
      smtpSecurity: "none",
      smtpUser: credentials?.user,
      smtpPassword: credentials?.pass,
      fromName: "Run Time Firm",
      fromAddress: "runtime@firm.test",
      replyTo: "answers@firm.test",
      teamAddress: "team@firm.test",
      enabled: true,
    },
  });
}

function addresses(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}${i}@client.test`);
}

async function statusOf(to: string[]) {
  const rows = await db.prisma.emailMessage.findMany({ where: { toAddress: { in: to } } });
  return rows;
}

async function allSent(to: string[], timeoutMs = 15_000): Promise<void> {
  await waitFor(
    async () => (await statusOf(to)).filter((r) => r.status === "sent").length === to.length,
    `${to.length} sent`,
    timeoutMs,
  );
}

describe("the email settings' SMTP server at run time", () => {
  it("sends the next message through a changed server without a restart, with the Reply-To set", async () => {
    const first = await smtpServer();
    const second = await smtpServer({ auth: { user: "mailer", pass: "Second-Server-Pass-1" } });
    await useServer(first);
    sender = await startEmailSender({ db, pollMs: 50, retry: FAST_RETRY });

    const before = addresses("before-change", 3);
    await queuePasswordChanged(db, before);
    await allSent(before);
    expect(before.map((to) => first.to(to).length)).toEqual([1, 1, 1]);
    const [mail] = first.to(before[0] ?? "");
    expect(mail).toMatchObject({ from: "runtime@firm.test", replyTo: "answers@firm.test" });
    expect(first.openConnections).toBeGreaterThanOrEqual(1);

    // the administrator moves to the second server (which wants a user name and password)
    await useServer(second, { user: "mailer", pass: "Second-Server-Pass-1" });
    const after = addresses("after-change", 3);
    await queuePasswordChanged(db, after);
    await allSent(after);
    expect(after.map((to) => second.to(to).length)).toEqual([1, 1, 1]);
    expect(after.map((to) => first.to(to).length)).toEqual([0, 0, 0]);
    expect(second.to(after[0] ?? "")[0]?.replyTo).toBe("answers@firm.test");
    // the first server's pool was closed once its messages were done
    await waitFor(() => first.openConnections === 0, "the old pool closed", 5000);

    // no host any more: the next messages are kept, marked captured
    await useServer(null);
    const kept = addresses("no-host", 2);
    await queuePasswordChanged(db, kept);
    await waitFor(
      async () => (await statusOf(kept)).every((r) => r.status === "captured"),
      "captured",
      10_000,
    );
    await waitFor(() => second.openConnections === 0, "the second pool closed", 5000);
    expect(kept.map((to) => first.to(to).length + second.to(to).length)).toEqual([0, 0]);
  }, 60_000);

  it("SMTP stopped, 20 messages queued, started again: 20 delivered, none twice", async () => {
    const smtp = await smtpServer();
    await useServer(smtp);
    sender ??= await startEmailSender({ db, pollMs: 50, retry: FAST_RETRY });
    await smtp.stop();

    const queued = addresses("outage", 20);
    await queuePasswordChanged(db, queued);
    // every one has failed at least once, and says why
    await waitFor(
      async () => (await statusOf(queued)).every((r) => r.attempts >= 1 && r.status === "queued"),
      "20 failed attempts",
      15_000,
    );
    const waiting = await statusOf(queued);
    expect(waiting.every((r) => /ECONNREFUSED|connect/i.test(r.lastError ?? ""))).toBe(true);
    expect(smtp.received).toHaveLength(0);

    await smtp.start(); // the same port
    await allSent(queued, 30_000);
    await settle(500);
    expect(queued.map((to) => smtp.to(to).length)).toEqual(queued.map(() => 1));
    expect(smtp.received).toHaveLength(20);
    const sent = await statusOf(queued);
    expect(sent.every((r) => r.status === "sent" && r.lastError === null && r.attempts >= 2)).toBe(true);
  }, 60_000);

  it("fails each attempt with the reason when the stored password cannot be opened, and sends once it is entered again", async () => {
    const smtp = await smtpServer({ auth: { user: "mailer", pass: "Entered-Again-7" } });
    await useServer(smtp, { user: "mailer", pass: "Entered-Again-7" });
    // sealed under another key (another SESSION_SECRET): not openable here
    await db.prisma.emailSettings.update({
      where: { id: 1 },
      data: { smtpPasswordSealed: "v1.AAAAAAAAAAAAAAAA.AAAA.AAAAAAAAAAAAAAAAAAAAAA" },
    });
    sender ??= await startEmailSender({ db, pollMs: 50, retry: FAST_RETRY });
    const to = addresses("unsealable", 1);
    await queuePasswordChanged(db, to);
    await waitFor(async () => ((await statusOf(to))[0]?.attempts ?? 0) >= 1, "a failed attempt", 10_000);
    const [row] = await statusOf(to);
    expect(row?.status).toBe("queued");
    expect(row?.lastError).toMatch(/stored SMTP password cannot be opened/);
    expect(smtp.received).toHaveLength(0);

    await useServer(smtp, { user: "mailer", pass: "Entered-Again-7" });
    await allSent(to);
    expect(smtp.to(to[0] ?? "")).toHaveLength(1);
  }, 60_000);
});
