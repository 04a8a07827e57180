import { createApp } from "@gateway/app";
import { fakeWebDist } from "@gateway/testing/appHarness";
import { type ReceivedMail, startTestSmtp, type TestSmtp } from "@services/email/testing";
import { workloadFor } from "@services/registry";
import { seed } from "@services/seed";
import { parseConfig, setConfig } from "@services/shared/config";
import { type Runtime, startRuntime } from "@services/shared/runtime";
import { scratchDatabase } from "@services/shared/testing/db";
import request from "supertest";

// The whole identity pipeline as a person meets it: the gateway, the outbox relay, JetStream, the
// email service's consumers and sender, and a real SMTP server. A registration's verification mail
// arrives and its link verifies the address; a reset mail's link sets a new password.

const PUBLIC_URL = "https://portal.test";

async function mailTo(
  smtp: TestSmtp,
  address: string,
  subject: RegExp,
  timeoutMs = 20_000,
): Promise<ReceivedMail> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const mail = smtp.to(address).find((m) => subject.test(m.subject));
    if (mail) return mail;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(
    `no mail to ${address} matching ${subject} (got: ${smtp.received.map((m) => m.subject).join(", ")})`,
  );
}

function tokenOf(mail: ReceivedMail, mode: string): string {
  const link = new RegExp(
    `${PUBLIC_URL.replace(/\./g, "\\.")}/auth\\?mode=${mode}&(?:amp;)?token=([A-Za-z0-9_%-]+)`,
  );
  const inText = mail.text.match(link);
  // The HTML part is escaped (Mustache writes & = / as entities); a browser decodes them in href.
  const html = mail.html
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
    .replace(/&amp;/g, "&");
  const inHtml = html.match(link);
  expect(inText?.[1]).toBeDefined();
  expect(inHtml?.[1]).toBe(inText?.[1]);
  return decodeURIComponent(inText?.[1] ?? "");
}

describe("identity over real mail", () => {
  let smtp: TestSmtp;
  let runtime: Runtime;
  let dropDb: () => Promise<void>;
  let stopApp: () => Promise<void>;
  let web: { dir: string; remove(): void };
  let agent: ReturnType<typeof request.agent>;
  let server: Parameters<typeof request>[0];

  beforeAll(async () => {
    smtp = await startTestSmtp();
    const db = await scratchDatabase();
    dropDb = db.drop;
    const cfg = parseConfig({
      ...process.env,
      DATABASE_URL: db.url,
      SMTP_URL: smtp.url,
      PUBLIC_URL,
      TEAM_EMAIL: "team@firm.test",
      EVENT_STREAM: `${process.env.EVENT_STREAM}_MAIL`,
      SUBJECT_PREFIX: `${process.env.SUBJECT_PREFIX}mail`,
    });
    setConfig(cfg);
    runtime = await startRuntime(cfg, { allowEmbedded: false, relay: true, ...workloadFor("all") });
    await seed(runtime.db, cfg);
    web = fakeWebDist();
    const app = await createApp({
      config: cfg,
      db: runtime.db,
      sessionStore: runtime.sessionStore,
      redis: runtime.redis,
      readiness: runtime.readiness,
      webDist: web.dir,
    });
    stopApp = app.stop;
    server = app.app;
    agent = request.agent(app.app);
  }, 60_000);

  afterAll(async () => {
    await stopApp?.();
    await runtime?.close();
    await smtp?.stop();
    web?.remove();
    await dropDb?.();
  });

  it("mails a verification link on registration that verifies the address, and tells the team", async () => {
    const registered = await agent.post("/api/register").send({
      username: "mailtest",
      email: "mail.test@client.test",
      password: "First-pass-123",
      firstName: "Mira",
      lastName: "Test",
      userType: "client",
    });
    expect(registered.status).toBe(201);
    expect(registered.body).toMatchObject({ emailVerified: false, userType: "user" });

    const mail = await mailTo(smtp, "mail.test@client.test", /^Confirm your email for ESRT$/);
    expect(mail.text).toContain("Mira");
    const token = tokenOf(mail, "verify-email");
    await mailTo(smtp, "team@firm.test", /registration: Mira Test/);

    const verified = await agent.post("/api/verify-email").send({ token });
    expect(verified.status).toBe(200);
    expect((await agent.get("/api/user")).body).toMatchObject({ emailVerified: true });

    const again = await agent.post("/api/verify-email").send({ token });
    expect(again.status).toBe(400);

    // The delivery log keeps the message but not its live link (once it is marked sent).
    const deadline = Date.now() + 10_000;
    let logged = await runtime.db.prisma.emailMessage.findFirstOrThrow({
      where: { toAddress: "mail.test@client.test", templateKey: "email_verification" },
    });
    while (logged.status !== "sent" && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      logged = await runtime.db.prisma.emailMessage.findFirstOrThrow({ where: { id: logged.id } });
    }
    expect(logged.status).toBe("sent");
    expect(logged.text).toContain("token=redacted");
    expect(logged.text).not.toContain(token);
    await mailTo(smtp, "mail.test@client.test", /^Welcome to ESRT Portal$/);
  }, 40_000);

  it("mails a single-use reset link that sets a new password", async () => {
    const answer = await request(server).post("/api/reset-password").send({ email: "mail.test@client.test" });
    expect(answer.status).toBe(200);
    const unknown = await request(server).post("/api/reset-password").send({ email: "nobody@client.test" });
    expect(unknown.body).toEqual(answer.body);

    const mail = await mailTo(smtp, "mail.test@client.test", /^Reset your ESRT password$/);
    const token = tokenOf(mail, "reset-password");
    const reset = await request(server)
      .post("/api/reset-password/confirm")
      .send({ token, password: "Second-pass-456" });
    expect(reset.status).toBe(200);

    const oldLogin = await request(server)
      .post("/api/login")
      .send({ login: "mailtest", password: "First-pass-123" });
    expect(oldLogin.status).toBe(401);
    const newLogin = await request(server)
      .post("/api/login")
      .send({ login: "MailTest", password: "Second-pass-456" });
    expect(newLogin.status).toBe(200);
    const reused = await request(server)
      .post("/api/reset-password/confirm")
      .send({ token, password: "Third-pass-789!" });
    expect(reused.status).toBe(400);
    expect(smtp.to("nobody@client.test")).toHaveLength(0);
  }, 40_000);

  it("sends a fresh verification link on request, and the older link stops working", async () => {
    const visitor = request.agent(server);
    const registered = await visitor.post("/api/register").send({
      username: "resender",
      email: "resend@client.test",
      password: "First-pass-123",
      firstName: "Remy",
      lastName: "Send",
      userType: "prospect",
    });
    expect(registered.status).toBe(201);
    const first = tokenOf(await mailTo(smtp, "resend@client.test", /^Confirm your email/), "verify-email");

    const signedOut = await request(server).post("/api/verify-email/resend").send({});
    expect(signedOut.status).toBe(400);
    const unknown = await request(server)
      .post("/api/verify-email/resend")
      .send({ email: "nobody@client.test" });
    const resent = await request(server)
      .post("/api/verify-email/resend")
      .send({ email: "RESEND@client.test" });
    expect(resent.status).toBe(200);
    expect(unknown.body).toEqual(resent.body);

    const deadline = Date.now() + 20_000;
    while (smtp.to("resend@client.test").length < 2 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const mails = smtp.to("resend@client.test").filter((m) => /^Confirm your email/.test(m.subject));
    expect(mails).toHaveLength(2);
    const second = tokenOf(mails[1] as ReceivedMail, "verify-email");
    expect(second).not.toBe(first);

    expect((await request(server).post("/api/verify-email").send({ token: first })).status).toBe(400);
    expect((await request(server).post("/api/verify-email").send({ token: second })).status).toBe(200);
    expect(smtp.to("nobody@client.test")).toHaveLength(0);
    // Asking again once verified sends nothing more: no verification mail is asked of the email
    // service (the outbox row the mail would come from is written within the request), none arrives.
    const asked = () =>
      runtime.db.prisma.outboxEvent.count({ where: { type: "user.verification_requested" } });
    const before = await asked();
    await request(server).post("/api/verify-email/resend").send({ email: "resend@client.test" });
    await expect(asked()).resolves.toBe(before);
    expect(smtp.to("resend@client.test").filter((m) => /^Confirm your email/.test(m.subject))).toHaveLength(
      2,
    );
  }, 40_000);
});
