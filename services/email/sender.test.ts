import { randomUUID } from "node:crypto";
import type { Db } from "@services/shared/db";
import { settle, waitFor } from "@services/shared/events/testing/bus";
import type { EmailAttachment } from "./attachments";
import { loadMailContext } from "./mailContext";
import { smtpTransport } from "./mailTransport";
import { queueEmail } from "./queueEmail";
import { type EmailSender, startEmailSender } from "./sender";
import { testInvitation, testPdf } from "./testing/attachments";
import { startTestSmtp, type TestSmtp } from "./testing/smtpServer";
import { emailDatabase, queuePasswordChanged } from "./testing/world";

let world: Awaited<ReturnType<typeof emailDatabase>>;
let db: Db;
let smtp: TestSmtp;
const senders: EmailSender[] = [];
const FAST_RETRY = { baseMs: 100, maxMs: 300, maxAttempts: 8 };

beforeAll(async () => {
  world = await emailDatabase();
  db = world.db;
  smtp = await startTestSmtp({ refuse: ["gone@client.test"] });
});
afterAll(async () => {
  await smtp.stop();
  await world.drop();
});
afterEach(async () => {
  await Promise.all(senders.splice(0).map((s) => s.stop()));
});

async function sender(options: Partial<Parameters<typeof startEmailSender>[0]> = {}): Promise<EmailSender> {
  const started = await startEmailSender({
    db,
    transport: smtpTransport({ url: smtp.url, timeoutMs: 2000 }),
    pollMs: 50,
    retry: FAST_RETRY,
    ...options,
  });
  senders.push(started);
  return started;
}

/** Queues password_changed notices to the given addresses, committed in one transaction. */
function queue(addresses: string[], attachments?: EmailAttachment[]): Promise<string> {
  return queuePasswordChanged(db, addresses, attachments);
}

async function rowsTo(address: string) {
  return db.prisma.emailMessage.findMany({ where: { toAddress: address }, orderBy: { id: "asc" } });
}

describe("email sender", () => {
  it("refuses an unknown template and queues nothing", async () => {
    await expect(
      db.prisma.$transaction(async (tx) =>
        queueEmail({
          tx,
          eventId: randomUUID(),
          templateKey: "no_such_template",
          to: "nobody@client.test",
          context: await loadMailContext(tx),
          variables: {},
        }),
      ),
    ).rejects.toThrow('email template "no_such_template" does not exist');
    expect(await rowsTo("nobody@client.test")).toHaveLength(0);
  });

  it("reads the templates it is asked for with the context, and the seeded default of a missing one", async () => {
    await db.prisma.emailTemplate.update({
      where: { key: "welcome" },
      data: { subject: "Ready, {{firstName}}?" },
    });
    const removed = await db.prisma.emailTemplate.delete({ where: { key: "team_note_notification" } });
    try {
      const context = await db.prisma.$transaction((tx) =>
        loadMailContext(tx, ["welcome", "team_note_notification"]),
      );
      expect(context.templates?.get("welcome")?.subject).toBe("Ready, {{firstName}}?");
      expect(context.templates?.get("team_note_notification")).toBeNull();
      await db.prisma.$transaction(async (tx) => {
        const context = await loadMailContext(tx, ["team_note_notification"]);
        await queueEmail({
          tx,
          eventId: randomUUID(),
          templateKey: "team_note_notification",
          to: "defaulted@client.test",
          context,
          variables: { userName: "Ada Lovelace", notes: "Call me" },
        });
      });
    } finally {
      await db.prisma.emailTemplate.create({ data: removed });
    }
    const [row] = await rowsTo("defaulted@client.test");
    // the seeded default: the row is gone
    expect(row?.subject).toBe("New note from Ada Lovelace");
  });

  it("queues one message per event, template and address, however often it is asked", async () => {
    const eventId = randomUUID();
    for (let i = 0; i < 2; i++) {
      await db.prisma.$transaction(async (tx) =>
        queueEmail({
          tx,
          eventId,
          templateKey: "password_changed",
          to: "once@client.test",
          context: await loadMailContext(tx),
          variables: { firstName: "Ada" },
        }),
      );
    }
    const rows = await rowsTo("once@client.test");
    expect(rows).toHaveLength(1);
    expect(rows[0]?.dedupeKey).toBe(`${eventId}:password_changed:once@client.test`);
    expect(rows[0]?.status).toBe("queued");
  });

  it("with no SMTP transport keeps the message, marked captured, and sends nothing", async () => {
    await sender({ transport: null });
    await queue(["captured@client.test"]);
    await waitFor(async () => (await rowsTo("captured@client.test"))[0]?.status === "captured", "captured");
    await settle(200);
    expect(smtp.to("captured@client.test")).toHaveLength(0);
    const [row] = await rowsTo("captured@client.test");
    expect(row?.subject).toBe("Your ESRT password was changed");
    expect(row?.text).toContain("Hello Ada,");
    expect(row?.sentAt).toBeNull();
  });

  it("keeps the messages, marked captured, while email is switched off in the settings", async () => {
    await db.prisma.emailSettings.update({ where: { id: 1 }, data: { enabled: false } });
    try {
      await sender();
      await queue(["switched-off@client.test"]);
      await waitFor(
        async () => (await rowsTo("switched-off@client.test"))[0]?.status === "captured",
        "captured",
      );
    } finally {
      await db.prisma.emailSettings.update({ where: { id: 1 }, data: { enabled: true } });
    }
    await queue(["switched-on@client.test"]);
    await waitFor(() => smtp.to("switched-on@client.test").length === 1, "sent once switched on");
    await settle(200);
    expect(smtp.to("switched-off@client.test")).toHaveLength(0);
    expect((await rowsTo("switched-on@client.test"))[0]?.status).toBe("sent");
  });

  it("marks a message failed at once when the server refuses the address for good (5xx)", async () => {
    await sender();
    await queue(["gone@client.test"]);
    await waitFor(async () => (await rowsTo("gone@client.test"))[0]?.status === "failed", "failed");
    const [row] = await rowsTo("gone@client.test");
    expect(row?.attempts).toBe(1);
    expect(row?.lastError).toContain("Mailbox unavailable");
    expect(smtp.to("gone@client.test")).toHaveLength(0);
  });

  it("keeps retrying while the SMTP server is down and delivers once it is back", async () => {
    await smtp.stop();
    await sender();
    await queue(["patient@client.test"]);
    await waitFor(async () => {
      const [row] = await rowsTo("patient@client.test");
      return row !== undefined && row.attempts >= 2;
    }, "two failed attempts");
    const [waiting] = await rowsTo("patient@client.test");
    expect(waiting?.status).toBe("queued");
    expect(waiting?.lastError).toMatch(/ECONNREFUSED|connect/i);
    expect(waiting?.nextAttemptAt).not.toBeNull();

    await smtp.start();
    await waitFor(async () => (await rowsTo("patient@client.test"))[0]?.status === "sent", "sent");
    await settle(300);
    const received = smtp.to("patient@client.test");
    expect(received).toHaveLength(1);
    const [sent] = await rowsTo("patient@client.test");
    expect(sent?.lastError).toBeNull();
    expect(sent?.sentAt).not.toBeNull();
    expect(sent?.messageId).toBe(received[0]?.messageId);
    expect(received[0]?.from).toBe("no-reply@firm.test");
    expect(received[0]?.subject).toBe("Your ESRT password was changed");
  });

  it("with two senders running at once, sends each message exactly once", async () => {
    const addresses = Array.from({ length: 16 }, (_, i) => `pair${i}@client.test`);
    await queue(addresses);
    await Promise.all([sender({ batchSize: 2 }), sender({ batchSize: 2 })]);
    await waitFor(
      async () =>
        (await db.prisma.emailMessage.count({ where: { toAddress: { in: addresses }, status: "sent" } })) ===
        16,
      "16 sent",
    );
    await settle(300);
    const received = smtp.received.filter((m) => m.to.some((to) => addresses.includes(to)));
    expect(received).toHaveLength(16);
    expect(new Set(received.map((m) => m.to[0])).size).toBe(16);
    const rows = await db.prisma.emailMessage.findMany({ where: { toAddress: { in: addresses } } });
    expect(rows.every((r) => r.attempts === 1)).toBe(true);
  });

  it("sends the attachments stored with a message, the invitation as the calendar part, also after a retry", async () => {
    const invitation = testInvitation({ attendee: { name: "Ada Lovelace", email: "invited@client.test" } });
    const statement = testPdf("%PDF-1.7 statement");
    await smtp.stop();
    await sender();
    await queue(["invited@client.test"], [invitation, statement]);
    const [stored] = await rowsTo("invited@client.test");
    expect(stored?.attachments).toEqual([invitation, statement]);
    await waitFor(
      async () => ((await rowsTo("invited@client.test"))[0]?.attempts ?? 0) >= 1,
      "a failed attempt",
    );
    await smtp.start();
    await waitFor(async () => (await rowsTo("invited@client.test"))[0]?.status === "sent", "sent");
    await settle(300);
    const [mail] = smtp.to("invited@client.test");
    expect(smtp.to("invited@client.test")).toHaveLength(1);
    // what a mail client reads: the calendar part with its method, the .ics file and the PDF (line
    // ends and the final line break are the MIME encoder's)
    const lines = (text: string | undefined) => text?.split(/\r?\n/).filter((line) => line !== "");
    const calendar = mail?.attachments.filter((a) => a.mimeType === "text/calendar") ?? [];
    expect(calendar.map((a) => a.method)).toEqual(["REQUEST"]);
    expect(lines(calendar[0]?.content)).toEqual(lines(invitation.content));
    const ics = mail?.attachments.filter((a) => a.filename === "invite.ics") ?? [];
    expect(ics.map((a) => lines(a.content))).toEqual([lines(invitation.content)]);
    expect(mail?.attachments.filter((a) => a.mimeType === "application/pdf")).toEqual([
      { filename: "statement.pdf", mimeType: "application/pdf", method: null, content: "%PDF-1.7 statement" },
    ]);
    expect(mail?.attachments).toHaveLength(3);
  });
});
