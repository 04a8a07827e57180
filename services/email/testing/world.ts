import { randomUUID } from "node:crypto";
import { seed } from "@services/seed";
import { config, setConfig } from "@services/shared/config";
import type { Db } from "@services/shared/db";
import { startConsumers } from "@services/shared/events/consumer";
import { jetStreamTransport } from "@services/shared/events/jetstream";
import { startRelay } from "@services/shared/events/relay";
import { deleteStream } from "@services/shared/events/testing/bus";
import { eventsDatabase, takeUniqueBus } from "@services/shared/events/testing/world";
import type { EventTransport } from "@services/shared/events/transport";
import { connectNats } from "@services/shared/nats";
import type { EmailAttachment } from "../attachments";
import { loadMailContext, type MailContext } from "../mailContext";
import { smtpTransport } from "../mailTransport";
import { type QueueEmailProps, queueEmail } from "../queueEmail";
import type { EmailVariables } from "../renderEmail";
import { startEmailSender } from "../sender";
import { consumers } from "../worker";
import { startTestSmtp, type TestSmtp } from "./smtpServer";

/** The team address the email tests configure in email_settings. */
export const TEST_TEAM_ADDRESS = "team@firm.test";
/** The public address links in the test emails start with. */
export const TEST_PUBLIC_URL = "https://portal.test";

/**
 * A seeded database of the test file's own (a sender claims every queued message, so email tests
 * must not share the run's database), with the team address set in email_settings and a
 * configuration without TEAM_EMAIL or MAIL_FROM. `drop()` restores the configuration.
 */
export async function emailDatabase(): Promise<{ db: Db; drop(): Promise<void> }> {
  const original = config();
  setConfig({ ...original, TEAM_EMAIL: undefined, MAIL_FROM: undefined, PUBLIC_URL: TEST_PUBLIC_URL });
  const world = await eventsDatabase();
  await seed(world.db, config());
  await world.db.prisma.emailSettings.update({
    where: { id: 1 },
    data: { teamAddress: TEST_TEAM_ADDRESS, fromName: "Portal Tests", fromAddress: "no-reply@firm.test" },
  });
  return {
    db: world.db,
    async drop() {
      setConfig(original);
      await world.drop();
    },
  };
}

/**
 * Queues a password_changed notice to each address, committed in one transaction of one event (its
 * NOTIFY wakes the senders). Answers the event id.
 * @throws when the database refuses the transaction.
 */
export async function queuePasswordChanged(
  db: Db,
  addresses: string[],
  attachments?: EmailAttachment[],
): Promise<string> {
  const eventId = randomUUID();
  await db.prisma.$transaction(async (tx) => {
    const context = await loadMailContext(tx);
    for (const to of addresses) {
      await queueEmail({
        tx,
        eventId,
        templateKey: "password_changed",
        to,
        context,
        variables: { firstName: "Ada", changedAt: "today", link: "https://portal.test/auth" },
        attachments,
      });
    }
  });
  return eventId;
}

/**
 * Queues one email of `templateKey` to `to`, as its own event, with the variables made from the
 * mail context; answers the stored message.
 */
export async function queueTestEmail(
  db: Db,
  props: Pick<QueueEmailProps, "templateKey" | "to" | "oneTimeToken"> & {
    variables(context: MailContext): EmailVariables;
  },
) {
  const { templateKey, to } = props;
  const eventId = randomUUID();
  await db.prisma.$transaction(async (tx) => {
    const context = await loadMailContext(tx, [templateKey]);
    await queueEmail({
      tx,
      eventId,
      templateKey,
      to,
      context,
      variables: props.variables(context),
      oneTimeToken: props.oneTimeToken,
    });
  });
  return db.prisma.emailMessage.findUniqueOrThrow({
    where: { dedupeKey: `${eventId}:${templateKey}:${to}` },
  });
}

/** The whole email path of a test file: its database, the bus, the consumers, the sender and SMTP. */
export interface EmailPipeline {
  db: Db;
  /** the JetStream transport the relay publishes to (a test may publish on it directly) */
  transport: EventTransport;
  smtp: TestSmtp;
  stop(): Promise<void>;
}

/**
 * Starts what delivers a committed event as email: a seeded database of the file's own, a relay
 * to a JetStream stream of its own, the email service's consumers, a sender with short retries,
 * and a real SMTP server that keeps what it receives.
 * @throws when NATS, PostgreSQL or the SMTP port cannot be reached.
 */
export async function startEmailPipeline(): Promise<EmailPipeline> {
  const world = await emailDatabase();
  const db = world.db;
  const bus = takeUniqueBus();
  const nc = await connectNats(process.env.NATS_URL ?? "nats://127.0.0.1:4222");
  const transport = await jetStreamTransport({ nc, stream: bus.stream, subjectPrefix: bus.prefix });
  const relay = await startRelay({ db, transport, pollMs: 200 });
  const workers = await startConsumers({
    db,
    transport,
    consumers,
    maxDeliver: 3,
    backoffMs: [50],
    subjectPrefix: bus.prefix,
  });
  const smtp = await startTestSmtp();
  const sender = await startEmailSender({
    db,
    transport: smtpTransport({ url: smtp.url, timeoutMs: 2000 }),
    pollMs: 100,
    retry: { baseMs: 100, maxMs: 300, maxAttempts: 5 },
  });
  return {
    db,
    transport,
    smtp,
    async stop() {
      await sender.stop();
      await workers.stop();
      await relay.stop();
      await transport.close();
      await deleteStream(nc, bus.stream);
      await nc.close();
      await smtp.stop();
      await world.drop();
    },
  };
}

/**
 * Registers the test file's email pipeline: started before its tests, stopped after them. The
 * returned function gives the running pipeline inside hooks and tests.
 * @throws Error when read before the pipeline has started.
 */
export function registerEmailPipeline(): () => EmailPipeline {
  let running: EmailPipeline | undefined;
  beforeAll(async () => {
    running = await startEmailPipeline();
  });
  afterAll(async () => {
    await running?.stop();
  });
  return () => {
    if (!running) throw new Error("the email pipeline has not started: read it inside a hook or a test");
    return running;
  };
}

/**
 * Publishes a committed event once more, as JetStream does after a crash before the ack: the one
 * outbox row of `type` whose payload's `key` is `id` (expected to be exactly one).
 */
export async function redeliverEvent(
  pipeline: EmailPipeline,
  type: string,
  key: "appointmentId" | "documentId",
  id: number,
): Promise<void> {
  const rows = await pipeline.db.prisma.$queryRaw<{ id: string; subject: string; envelope: unknown }[]>`
    SELECT id, subject, envelope FROM outbox_events
    WHERE type = ${type} AND (envelope->'payload'->>${key}::text)::int = ${id}`;
  expect(rows).toHaveLength(1);
  const [row] = rows;
  if (!row) return;
  await pipeline.transport.publish(
    row.subject,
    `${row.id}-again`,
    new TextEncoder().encode(JSON.stringify(row.envelope)),
  );
}
