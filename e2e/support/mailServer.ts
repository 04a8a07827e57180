import { createApp } from "@gateway/app";
import { workloadFor } from "@services/registry";
import { seed } from "@services/seed";
import { parseConfig, setConfig } from "@services/shared/config";
import type { Db } from "@services/shared/db";
import { type Runtime, startRuntime } from "@services/shared/runtime";
import { unseal } from "@services/shared/sealed";
import { scratchDatabase } from "@services/shared/testing/db";
import { listenOnLoopback } from "@services/shared/testing/loopback";
import { servedAt, type TestServer, WEB_DIST } from "./server";

/** A gateway with the outbox relay and the email service running, its mail captured in the database. */
export interface MailTestServer extends TestServer {
  db: Db;
}

/**
 * Starts, for one browser test file, a gateway serving the built web app on its own scratch
 * database, with the outbox relay and the email service's consumers and sender, on stream and
 * subject names of its own. No SMTP is configured, so every message is kept in `email_messages`,
 * marked captured, its one-time links redacted ({@link emailedLink} finds their tokens).
 * @throws when a backing service does not answer or web/dist has not been built.
 */
export async function startMailTestServer(suffix: string): Promise<MailTestServer> {
  const scratch = await scratchDatabase();
  const { SMTP_URL: _smtp, ...env } = process.env;
  const config = parseConfig({
    ...env,
    DATABASE_URL: scratch.url,
    EVENT_STREAM: `${process.env.EVENT_STREAM}_${suffix.toUpperCase()}`,
    SUBJECT_PREFIX: `${process.env.SUBJECT_PREFIX}${suffix}`,
  });
  setConfig(config);
  let runtime: Runtime | undefined;
  try {
    runtime = await startRuntime(config, { allowEmbedded: false, relay: true, ...workloadFor("email") });
    await seed(runtime.db, config);
    const started = runtime;
    const { app, stop } = await createApp({
      config,
      db: started.db,
      sessionStore: started.sessionStore,
      redis: started.redis,
      readiness: started.readiness,
      webDist: WEB_DIST,
    });
    const server = await listenOnLoopback(app);
    servedAt(config, server.url);
    return {
      url: server.url,
      config,
      db: started.db,
      async stop() {
        await server.close();
        await stop();
        await started.close();
        await scratch.drop();
      },
    };
  } catch (error) {
    await runtime?.close();
    await scratch.drop();
    throw error;
  }
}

/** The events whose email carries a link of each mode, with the link's token sealed in them. */
const TOKEN_EVENTS: Record<string, string[]> = {
  "verify-email": ["user.registered", "user.verification_requested"],
  "reset-password": ["user.password_reset_requested"],
  "set-password": ["user.invited"],
};

/**
 * The path and query of the newest link to `/auth?mode=<mode>&token=…` emailed to `address`, as a
 * person would follow it; waits for the message to be written. The stored message holds its link
 * with the token redacted (issue 20: no live one-time link at rest), so the token comes from the event
 * that asked for the email, where it is sealed, as the sender itself puts it back.
 * @throws Error when no such message arrives within `timeoutMs`, or the stored one holds a live token.
 */
export async function emailedLink(
  db: Db,
  address: string,
  mode: string,
  timeoutMs = 15_000,
): Promise<string> {
  const pattern = new RegExp(`https?://[^\\s"'<>]+/auth\\?mode=${mode}&token=([A-Za-z0-9_%.-]+)`);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const messages = await db.prisma.emailMessage.findMany({
      where: { toAddress: address },
      orderBy: { id: "desc" },
    });
    const stored = messages.map((m) => pattern.exec(m.text)?.[1]).find((token) => token !== undefined);
    if (stored !== undefined) {
      if (stored !== "redacted") throw new Error(`the message to ${address} holds a live ${mode} link`);
      return `/auth?mode=${mode}&token=${encodeURIComponent(await sealedTokenFor(db, address, mode))}`;
    }
    if (Date.now() > deadline) {
      throw new Error(`no email to ${address} with a ${mode} link (found ${messages.length} messages)`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The token of the newest event of `mode`'s kinds addressed to `address`, unsealed. */
async function sealedTokenFor(db: Db, address: string, mode: string): Promise<string> {
  const events = await db.prisma.outboxEvent.findMany({
    where: { type: { in: TOKEN_EVENTS[mode] ?? [] } },
    orderBy: { createdAt: "desc" },
  });
  for (const event of events) {
    const payload = (event.envelope as { payload?: { email?: string; sealedToken?: string } }).payload;
    if (payload?.email?.toLowerCase() === address.toLowerCase() && payload.sealedToken) {
      return unseal(payload.sealedToken);
    }
  }
  throw new Error(`no ${mode} event for ${address}`);
}
