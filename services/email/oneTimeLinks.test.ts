import { randomBytes, randomUUID } from "node:crypto";
import { AUTH_LINKS } from "@schema/api/user";
import type { Db } from "@services/shared/db";
import { getEmailMessage, resendEmailMessage } from "./deliveryLog";
import type { MailTransport, OutgoingMail } from "./mailTransport";
import { withoutToken, withToken } from "./oneTimeLinks";
import { captureDueEmails, claimDueEmails, deliverClaimedEmail } from "./sendDueEmails";
import { emailDatabase, queueTestEmail, TEST_PUBLIC_URL } from "./testing/world";

// One-time links at rest (issue 20): a reset, verification or invitation link is never readable in
// email_messages, whether the message waits, was sent, was captured (no SMTP server) or failed; the
// recipient still gets a working link.

let world: Awaited<ReturnType<typeof emailDatabase>>;
let db: Db;

beforeAll(async () => {
  world = await emailDatabase();
  db = world.db;
});
afterAll(async () => {
  await world.drop();
});

const ADMIN = { id: 1, name: "Mail Admin", email: "admin@firm.test" };

/** Queues a password reset email to `to` whose link carries `token`; answers the message's id. */
async function queueReset(to: string, token: string): Promise<number> {
  const row = await queueTestEmail(db, {
    templateKey: "password_reset",
    to,
    variables: (context) => ({
      firstName: "Grace",
      link: AUTH_LINKS.resetPassword(context.publicUrl, token),
      expiresInMinutes: 60,
    }),
    oneTimeToken: token,
  });
  return row.id;
}

/** Whether any stored message (any column) still holds `token`. */
async function tokenAtRest(token: string): Promise<boolean> {
  const rows = await db.prisma.emailMessage.findMany();
  return JSON.stringify(rows).includes(token);
}

/** A transport that keeps what it is given, or refuses every message with a permanent 550. */
function transport(refuse = false): MailTransport & { sent: OutgoingMail[] } {
  const sent: OutgoingMail[] = [];
  return {
    sent,
    async send(mail) {
      if (refuse) throw Object.assign(new Error("550 mailbox unavailable"), { responseCode: 550 });
      sent.push(mail);
      return { messageId: `<${randomUUID()}@test>` };
    },
    close: () => undefined,
  };
}

/** Claims the due messages and delivers each through `via`. */
async function deliverDue(via: MailTransport): Promise<void> {
  const claim = await claimDueEmails({ db, limit: 50, leaseMs: 60_000 });
  for (const email of claim.emails) {
    await deliverClaimedEmail({
      db,
      transport: via,
      email,
      from: claim.from,
      retry: { baseMs: 1, maxMs: 1, maxAttempts: 1 },
    });
  }
}

function address(name: string): string {
  return `${name}-${randomBytes(3).toString("hex")}@client.test`;
}

describe("one-time links in stored messages", () => {
  it("keeps a waiting message's link token sealed, and sends the working link", async () => {
    const token = randomBytes(32).toString("base64url");
    const to = address("waiting");
    const id = await queueReset(to, token);

    const waiting = await db.prisma.emailMessage.findUniqueOrThrow({ where: { id } });
    expect(await tokenAtRest(token)).toBe(false);
    expect(waiting.text).toContain(`${TEST_PUBLIC_URL}/auth?mode=reset-password&token=redacted`);
    expect(waiting.linkTokenSealed).toEqual(expect.any(String));
    expect(waiting.oneTimeLink).toBe(true);

    const via = transport();
    await deliverDue(via);
    const [mail] = via.sent.filter((m) => m.to === to);
    const link = `${TEST_PUBLIC_URL}/auth?mode=reset-password&token=${token}`;
    expect(mail?.text).toContain(link);
    expect(mail?.html).toContain(
      `href="${TEST_PUBLIC_URL.replace(/\//g, "&#x2F;")}&#x2F;auth?mode&#x3D;reset-password&amp;token&#x3D;${token}"`,
    );

    const sent = await db.prisma.emailMessage.findUniqueOrThrow({ where: { id } });
    expect(sent).toMatchObject({ status: "sent", linkTokenSealed: null });
    expect(await tokenAtRest(token)).toBe(false);
  });

  it("keeps no usable link in a captured message (no SMTP server)", async () => {
    const token = randomBytes(32).toString("base64url");
    const id = await queueReset(address("captured"), token);
    expect(await captureDueEmails({ db, limit: 50 })).toBeGreaterThanOrEqual(1);
    const captured = await db.prisma.emailMessage.findUniqueOrThrow({ where: { id } });
    expect(captured).toMatchObject({ status: "captured", linkTokenSealed: null });
    expect(captured.text).toContain("token=redacted");
    expect(await tokenAtRest(token)).toBe(false);
  });

  it("keeps no usable link in a failed message, and refuses to resend it without its link", async () => {
    const token = randomBytes(32).toString("base64url");
    const id = await queueReset(address("refused"), token);
    await deliverDue(transport(true));
    const failed = await db.prisma.emailMessage.findUniqueOrThrow({ where: { id } });
    expect(failed).toMatchObject({ status: "failed", linkTokenSealed: null });
    expect(await tokenAtRest(token)).toBe(false);

    await expect(getEmailMessage({ db, id })).resolves.toMatchObject({ oneTimeLink: true });
    await expect(resendEmailMessage({ db, actor: ADMIN, id })).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringMatching(/^This message carried a one-time link/),
    });
    expect((await db.prisma.emailMessage.findUniqueOrThrow({ where: { id } })).status).toBe("failed");
  });
});

describe("putting a token back", () => {
  it("restores every redacted token= of the text and the escaped HTML, and nothing else", () => {
    const token = "Ab-_9".repeat(8);
    const text = `Open https://p.test/auth?mode=reset-password&token=${token} (or ${token}). Not redacted here.`;
    const html = `<a href="https:&#x2F;&#x2F;p.test&#x2F;auth?mode&#x3D;reset-password&amp;token&#x3D;${token}">x</a>`;
    const storedText = withoutToken(text, token);
    const storedHtml = withoutToken(html, token);
    expect(storedText).not.toContain(token);
    expect(storedHtml).not.toContain(token);
    expect(withToken(storedHtml, token)).toBe(html);
    expect(withToken(storedText, token)).toBe(
      `Open https://p.test/auth?mode=reset-password&token=${token} (or redacted). Not redacted here.`,
    );
  });
});
