import { randomBytes } from "node:crypto";
import type { PayloadOf } from "@schema/events";
import type { Db } from "@services/shared/db";
import { emit } from "@services/shared/events/outbox";
import { settle, waitFor } from "@services/shared/events/testing/bus";
import type { EventTransport } from "@services/shared/events/transport";
import { seal } from "@services/shared/sealed";
import type { ReceivedMail, TestSmtp } from "../testing/smtpServer";
import { registerEmailPipeline, TEST_PUBLIC_URL, TEST_TEAM_ADDRESS } from "../testing/world";

// The whole path: a use case's emit() commits, the relay publishes to JetStream, the email
// service's consumers queue the messages, the sender delivers them to a real SMTP server.

const pipeline = registerEmailPipeline();
let db: Db;
let smtp: TestSmtp;
let transport: EventTransport;

beforeAll(async () => {
  ({ db, smtp, transport } = pipeline());
});
function address(name: string): string {
  return `${name}-${randomBytes(3).toString("hex")}@client.test`;
}

function inHours(hours: number): string {
  return new Date(Date.now() + hours * 3_600_000).toISOString();
}

async function commit<T extends Parameters<typeof emit>[1]["type"]>(type: T, payload: PayloadOf<T>) {
  return db.prisma.$transaction((tx) => emit(tx, { type, payload }));
}

async function mailTo(to: string, count = 1): Promise<ReceivedMail[]> {
  await waitFor(() => smtp.to(to).length >= count, `${count} message(s) to ${to}`);
  return smtp.to(to);
}

/** The href of the first link of an HTML part, with the entities the template engine writes decoded. */
function firstHref(html: string): string {
  const match = /href="([^"]+)"/.exec(html);
  if (!match?.[1]) throw new Error("no link in the HTML part");
  return match[1]
    .replace(/&#x3D;/g, "=")
    .replace(/&#x2F;/g, "/")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");
}

function registered(email: string, token: string, firstName = "Ada"): PayloadOf<"user.registered"> {
  return {
    userId: 41,
    uniqueId: "U-41",
    email,
    firstName,
    lastName: "Lovelace",
    username: "ada41",
    userType: "user",
    companyName: "Analytical Engines Ltd",
    userVersion: 1,
    sealedToken: seal(token),
    tokenExpiresAt: inHours(24),
    registrationNotes: "Please call after 3 pm",
  };
}

describe("email consumers of user events", () => {
  it("sends nothing for a registration whose token cannot be unsealed (it goes to dead letters)", async () => {
    const email = address("forged");
    const envelope = await commit("user.registered", {
      ...registered(email, "unused"),
      sealedToken: "v1.AAAAAAAAAAAAAAAA.AAAAAA.AAAAAAAAAAAAAAAAAAAAAA",
    });
    await waitFor(
      async () => (await db.prisma.deadLetter.count({ where: { eventId: envelope.id } })) > 0,
      "a dead letter",
    );
    expect(await db.prisma.emailMessage.count({ where: { toAddress: email } })).toBe(0);
    expect(smtp.to(email)).toHaveLength(0);
  });

  it("mails a new user a verification link that carries their token, with their name escaped in the HTML", async () => {
    const email = address("ada");
    const token = randomBytes(24).toString("base64url");
    const envelope = await commit("user.registered", registered(email, token, '<script>alert("x")</script>'));

    const [mail] = await mailTo(email);
    const expectedLink = `${TEST_PUBLIC_URL}/auth?mode=verify-email&token=${token}`;
    expect(mail?.subject).toBe("Confirm your email for ESRT");
    expect(mail?.from).toBe("no-reply@firm.test");
    expect(mail?.text).toContain(expectedLink);
    expect(mail?.text).toContain("The link is valid for 24 hours.");
    expect(firstHref(mail?.html ?? "")).toBe(expectedLink);
    expect(new URL(firstHref(mail?.html ?? "")).searchParams.get("token")).toBe(token);
    expect(mail?.html).not.toContain("<script>");
    expect(mail?.html).toContain("Hello &lt;script&gt;alert(&quot;x&quot;)&lt;&#x2F;script&gt;,");

    const team = (await mailTo(TEST_TEAM_ADDRESS, 1)).filter((m) => m.text.includes(email));
    expect(team).toHaveLength(1);
    expect(team[0]?.text).toContain("registered as client (access requested).");
    expect(team[0]?.text).toContain("Company: Analytical Engines Ltd");
    expect(team[0]?.text).toContain("Notes: Please call after 3 pm");

    // The sender marks a row sent just after the SMTP server has the message: wait for that too.
    await waitFor(
      async () =>
        (await db.prisma.emailMessage.count({
          where: { dedupeKey: { startsWith: envelope.id }, status: { not: "sent" } },
        })) === 0,
      "both messages marked sent",
    );
    const rows = await db.prisma.emailMessage.findMany({ where: { dedupeKey: { startsWith: envelope.id } } });
    expect(rows.map((r) => [r.templateKey, r.toAddress, r.status]).sort()).toEqual(
      [
        ["email_verification", email, "sent"],
        ["team_new_registration", TEST_TEAM_ADDRESS, "sent"],
      ].sort(),
    );
    expect(rows.find((r) => r.toAddress === email)?.messageId).toBe(mail?.messageId);

    // the same event delivered again (as after a crash before the ack) sends nothing more
    const row = await db.prisma.outboxEvent.findUniqueOrThrow({ where: { id: envelope.id } });
    await transport.publish(
      row.subject,
      `${envelope.id}-again`,
      new TextEncoder().encode(JSON.stringify(row.envelope)),
    );
    await settle(700);
    expect(smtp.to(email)).toHaveLength(1);
    expect(await db.prisma.emailMessage.count({ where: { dedupeKey: { startsWith: envelope.id } } })).toBe(2);
  });

  it("mails a password reset link that carries the reset token", async () => {
    const email = address("reset");
    const token = randomBytes(24).toString("base64url");
    await commit("user.password_reset_requested", {
      userId: 42,
      email,
      firstName: "Grace",
      sealedToken: seal(token),
      tokenExpiresAt: inHours(1),
    });
    const [mail] = await mailTo(email);
    expect(mail?.subject).toBe("Reset your ESRT password");
    expect(mail?.text).toContain(`${TEST_PUBLIC_URL}/auth?mode=reset-password&token=${token}`);
    expect(mail?.text).toContain("expires in 60 minutes");
    expect(firstHref(mail?.html ?? "")).toBe(`${TEST_PUBLIC_URL}/auth?mode=reset-password&token=${token}`);
  });

  it("welcomes a verified user with the template as an admin edited it", async () => {
    await db.prisma.emailTemplate.update({
      where: { key: "welcome" },
      data: { subject: "{{firstName}}, your {{productName}} account is ready" },
    });
    const email = address("welcome");
    await commit("user.email_verified", {
      userId: 43,
      uniqueId: "U-43",
      email,
      userVersion: 2,
      firstName: "Katherine",
      username: "kjohnson",
    });
    const [mail] = await mailTo(email);
    expect(mail?.subject).toBe("Katherine, your ESRT account is ready");
    expect(mail?.text).toContain("Welcome to ESRT Portal. Your username is kjohnson.");
    expect(mail?.text).toContain(`Sign in to the portal <${TEST_PUBLIC_URL}/auth>`);
  });

  it("tells a user their password was changed", async () => {
    const email = address("changed");
    await commit("user.password_changed", { userId: 44, email, firstName: "Mary", via: "self" });
    const [mail] = await mailTo(email);
    expect(mail?.subject).toBe("Your ESRT password was changed");
    expect(mail?.text).toMatch(/was changed on \w+ \d{1,2}, \d{4} at \d{1,2}:\d{2} [AP]M P[SD]T\./);
  });

  it("tells a user a passkey was added to their account, with its name and a link to review it", async () => {
    const email = address("passkey");
    await commit("user.two_factor_changed", {
      userId: 46,
      email,
      firstName: "Mary",
      change: "passkey_added",
      passkeyName: "Work laptop",
    });
    const [mail] = await mailTo(email);
    expect(mail?.subject).toBe("A new passkey was added to your account");
    expect(mail?.text).toContain('The passkey is named "Work laptop".');
    expect(mail?.text).toContain(`review your two-factor sign-in <${TEST_PUBLIC_URL}/two-factor>`);
  });

  it("tells a user an administrator reset their two-factor sign-in", async () => {
    const email = address("reset2fa");
    await commit("user.two_factor_changed", {
      userId: 47,
      email,
      firstName: "Mary",
      change: "two_factor_reset",
    });
    const [mail] = await mailTo(email);
    expect(mail?.subject).toBe("An administrator reset the two-factor sign-in of your account");
    expect(mail?.text).not.toContain("passkey is named");
  });

  it("sends a user's note to the team's address, escaped in the HTML", async () => {
    const note = `Invoice <INV-7> & the "March" statement ${randomBytes(3).toString("hex")}`;
    await commit("user.notes_updated", {
      userId: 45,
      uniqueId: "U-45",
      email: "dorothy@client.test",
      firstName: "Dorothy",
      lastName: "Vaughan",
      username: "dvaughan",
      companyName: null,
      noteHistoryId: 9,
      notes: note,
      wordCount: 7,
    });
    await waitFor(() => smtp.to(TEST_TEAM_ADDRESS).some((m) => m.text.includes(note)), "the team's note");
    const mail = smtp.to(TEST_TEAM_ADDRESS).find((m) => m.text.includes(note));
    expect(mail?.subject).toBe("New note from Dorothy Vaughan");
    expect(mail?.text).toContain("Dorothy Vaughan (dorothy@client.test, —) sent a note:");
    expect(mail?.html).toContain("Invoice &lt;INV-7&gt; &amp; the &quot;March&quot; statement");
    expect(firstHref(mail?.html ?? "")).toBe(`${TEST_PUBLIC_URL}/admin/user-management`);
  });
});
