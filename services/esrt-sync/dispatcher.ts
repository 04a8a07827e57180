import { USER_SYNC_TYPE } from "@schema/esrt/contract";
import { config } from "@services/shared/config";
import type { Db, Tx } from "@services/shared/db";
import { isAppError } from "@services/shared/errors";
import { startLeaseRunner } from "@services/shared/jobs/leaseRunner";
import { logger } from "@services/shared/logger";
import { unsealSetting } from "@services/shared/sealed";
import { contextOf, inSpan, SpanKind, SpanStatusCode, tracingEnabled } from "@services/shared/telemetry";
import { DELIVERIES_CHANNEL } from "./deliveries";
import { parseRetryAfter, retryDelayMs } from "./schedule";
import { acknowledgeInTx, lockState } from "./state";
import { sendWebhook, type WebhookOutcome } from "./webhookClient";

// The dispatcher: claims due deliveries (FOR UPDATE SKIP LOCKED, under a lease) and sends them, a
// bounded number at once, by webhook or on NATS, then records the attempt and what follows from it
// in one transaction. Any number of dispatchers may run (in several sync workers): a delivery is
// claimed by one at a time, and at most one delivery per channel, endpoint and user is being sent at
// once (a partial unique index holds it), so a user's versions leave in order. A dispatcher killed
// mid-delivery loses nothing: its lease runs out and the delivery is sent again with the same
// webhook-id, which is how a receiver recognises a repeat.

/** Publishes a user's snapshot on NATS (services/esrt-sync/natsChannel.ts). */
export interface SnapshotPublisher {
  publishSnapshot(message: { uniqueId: string; version: number; payload: unknown }): Promise<void>;
}

export interface DispatcherOptions {
  db: Db;
  /** the NATS channel; without it this dispatcher leaves NATS deliveries to others */
  nats?: SnapshotPublisher;
  /** deliveries in flight at once (default ESRT_DISPATCH_CONCURRENCY) */
  concurrency?: number;
  /** the retry schedule's scale (default ESRT_RETRY_SCALE) */
  retryScale?: number;
  /** a webhook's timeout (default ESRT_WEBHOOK_TIMEOUT_MS) */
  timeoutMs?: number;
  /** how long a claim holds a delivery (default the timeout plus 30 s) */
  leaseMs?: number;
  /** an endpoint failing this long without a success is paused (default ESRT_PAUSE_AFTER_MS) */
  pauseAfterMs?: number;
  /** the fallback wake-up for due retries (default 500 ms) */
  pollMs?: number;
}

export interface Dispatcher {
  /** looks for due deliveries now */
  wake(): void;
  /** stops claiming and waits for the deliveries in flight */
  stop(): Promise<void>;
}

interface Claimed {
  id: number;
  messageId: string;
  channel: "nats" | "webhook" | "api";
  endpointId: number | null;
  userId: number | null;
  uniqueId: string | null;
  version: number | null;
  eventType: string;
  payload: unknown;
  attempts: number;
  leaseUntil: Date;
  /** the endpoint's address and secrets as the claim read them (null on the NATS channel) */
  url: string | null;
  secretSealed: string | null;
  previousSecretSealed: string | null;
  previousSecretExpiresAt: Date | null;
  /** the trace context of the span that made the delivery (null: not traced) */
  traceparent: string | null;
  tracestate: string | null;
}

/** The endpoint's secrets as the signing needs them. */
type EndpointSecrets = Pick<Claimed, "previousSecretSealed" | "previousSecretExpiresAt"> & {
  secretSealed: string;
};

/** What one attempt came to, as the outcome handler sees it. */
interface AttemptResult extends WebhookOutcome {
  startedAt: Date;
}

/** The logger, made on first use (importing this module reads no configuration). */
const log = () => logger("esrt.dispatcher");

/** Whether an HTTP status is a success (2xx: delivered, and for a snapshot acknowledged). */
function isSuccess(status: number | null): boolean {
  return status !== null && status >= 200 && status < 300;
}

/**
 * Puts back the deliveries whose claim ran out (their dispatcher died or hung): pending again, or
 * superseded when a newer one waits.
 */
export async function releaseExpiredLeases(db: Db): Promise<number> {
  return db.prisma.$executeRaw`
    UPDATE esrt_deliveries d
    SET status = CASE WHEN EXISTS (
          SELECT 1 FROM esrt_deliveries w
          WHERE w.status = 'pending' AND w.channel = d.channel
            AND COALESCE(w."endpointId", 0) = COALESCE(d."endpointId", 0) AND w."userId" = d."userId")
        THEN 'superseded'::"EsrtDeliveryStatus" ELSE 'pending'::"EsrtDeliveryStatus" END,
        "leaseUntil" = NULL, "nextAttemptAt" = now(), "updatedAt" = now()
    WHERE d.status = 'sending' AND d."leaseUntil" < now()`;
}

async function claim(db: Db, props: { limit: number; nats: boolean; leaseMs: number; pauseAfterMs: number }) {
  return db.prisma.$queryRaw<Claimed[]>`
    WITH due AS (
      SELECT d.id, e.url, e."secretSealed", e."previousSecretSealed", e."previousSecretExpiresAt"
      FROM esrt_deliveries d
      LEFT JOIN esrt_endpoints e ON e.id = d."endpointId"
      WHERE d.status = 'pending' AND d."nextAttemptAt" <= now()
        AND ((d.channel = 'webhook' AND e.enabled
              AND (e."failingSince" IS NULL
                   OR e."failingSince" > now() - make_interval(secs => ${props.pauseAfterMs / 1000}::float8)))
             OR (d.channel = 'nats' AND ${props.nats}))
        AND (d."userId" IS NULL OR NOT EXISTS (
          SELECT 1 FROM esrt_deliveries s
          WHERE s.status = 'sending' AND s.channel = d.channel
            AND COALESCE(s."endpointId", 0) = COALESCE(d."endpointId", 0) AND s."userId" = d."userId"))
      ORDER BY d."nextAttemptAt", d.id
      LIMIT ${props.limit}
      FOR UPDATE OF d SKIP LOCKED
    )
    UPDATE esrt_deliveries x
    SET status = 'sending', attempts = x.attempts + 1, "updatedAt" = now(),
        "leaseUntil" = now() + make_interval(secs => ${props.leaseMs / 1000}::float8)
    FROM due WHERE x.id = due.id
    RETURNING x.id, x."messageId", x.channel::text AS channel, x."endpointId", x."userId", x."uniqueId",
              x.version, x."eventType", x.payload, x.attempts, x."leaseUntil", x.traceparent, x.tracestate,
              due.url, due."secretSealed", due."previousSecretSealed", due."previousSecretExpiresAt"`;
}

/** The secrets that sign for an endpoint now: its own, and the previous one during the grace. */
function signingSecrets(endpoint: EndpointSecrets, now: Date): string[] {
  const secrets = [unsealSetting(endpoint.secretSealed)];
  if (
    endpoint.previousSecretSealed &&
    endpoint.previousSecretExpiresAt &&
    endpoint.previousSecretExpiresAt > now
  ) {
    secrets.push(unsealSetting(endpoint.previousSecretSealed));
  }
  return secrets;
}

/** Whether a newer delivery of the same user waits on the same channel and endpoint. */
async function newerWaits(tx: Tx, d: Claimed): Promise<boolean> {
  if (d.userId === null) return false;
  const rows = await tx.$queryRaw<{ n: number }[]>`
    SELECT 1 AS n FROM esrt_deliveries
    WHERE status = 'pending' AND channel = ${d.channel}::"EsrtChannel"
      AND COALESCE("endpointId", 0) = ${d.endpointId ?? 0} AND "userId" = ${d.userId} AND id <> ${d.id}
    LIMIT 1`;
  return rows.length > 0;
}

/**
 * Records an attempt and its consequences: delivered (and, for a webhook's snapshot, acknowledged),
 * the endpoint disabled on 410, a retry on the schedule (Retry-After honoured on 429 and 503), or a
 * dead letter after the last attempt; and the endpoint's health. Nothing is recorded when the claim
 * ran out meanwhile (another dispatcher owns the delivery now).
 */
async function recordOutcome(
  db: Db,
  d: Claimed,
  result: AttemptResult,
  options: { retryScale: number },
): Promise<void> {
  const ok = isSuccess(result.statusCode);
  await db.prisma.$transaction(async (tx) => {
    if (ok) {
      // the usual case in one statement: delivered if still this dispatcher's claim (else the lease
      // ran out and another dispatcher owns it), the attempt recorded either way, and the endpoint's
      // health (a healthy endpoint's row is written at most once a second, so concurrent deliveries
      // to it do not queue on its row lock)
      const delivered = await tx.$queryRaw<{ id: number }[]>`
        WITH done AS (
          UPDATE esrt_deliveries SET status = 'delivered', "deliveredAt" = now(), "leaseUntil" = NULL,
            "lastStatusCode" = ${result.statusCode}, "lastError" = NULL, "updatedAt" = now()
          WHERE id = ${d.id} AND status = 'sending' AND "leaseUntil" = ${d.leaseUntil}
          RETURNING id
        ), attempt AS (
          INSERT INTO esrt_delivery_attempts
            ("deliveryId", attempt, "startedAt", "statusCode", "latencyMs", error, "responseSnippet")
          VALUES (${d.id}, ${d.attempts}, ${result.startedAt}, ${result.statusCode}, ${result.latencyMs},
                  ${result.error}, ${result.snippet})
        ), endpoint AS (
          UPDATE esrt_endpoints SET "consecutiveFailures" = 0, "failingSince" = NULL, "lastSuccessAt" = now()
          WHERE id = ${d.channel === "webhook" ? d.endpointId : null}::int AND EXISTS (SELECT 1 FROM done)
            AND ("consecutiveFailures" > 0 OR "failingSince" IS NOT NULL OR "lastSuccessAt" IS NULL
                 OR "lastSuccessAt" < now() - interval '1 second')
        ), recovered AS (
          -- the endpoint answers again after failing (the snapshot still shows its failures): what
          -- waits on the retry schedule goes out now, not hours later; a Retry-After is still honoured
          UPDATE esrt_deliveries SET "nextAttemptAt" = now(), "updatedAt" = now()
          WHERE channel = 'webhook' AND "endpointId" = ${d.channel === "webhook" ? d.endpointId : null}::int
            AND status = 'pending' AND "nextAttemptAt" > now()
            AND "lastStatusCode" IS DISTINCT FROM 429 AND "lastStatusCode" IS DISTINCT FROM 503
            AND EXISTS (SELECT 1 FROM done)
            AND EXISTS (SELECT 1 FROM esrt_endpoints e WHERE e.id = esrt_deliveries."endpointId"
                          AND e."consecutiveFailures" > 0)
        )
        SELECT id FROM done`;
      if (delivered.length === 0) return;
      if (d.channel === "webhook" && d.eventType === USER_SYNC_TYPE && d.uniqueId && d.version) {
        await acknowledgeInTx(tx, { uniqueId: d.uniqueId, version: d.version, via: "webhook" }).catch(
          (err) => {
            // a user the sync service no longer holds, or a version above its latest: nothing to record
            if (!isAppError(err)) throw err;
            log().warn({ err, deliveryId: d.id }, "acknowledgement by webhook not recorded");
          },
        );
      }
      return;
    }

    // still this dispatcher's claim (else the lease ran out and another dispatcher owns it)
    const mine = await tx.$queryRaw<{ id: number }[]>`
      SELECT id FROM esrt_deliveries
      WHERE id = ${d.id} AND status = 'sending' AND "leaseUntil" = ${d.leaseUntil}
      FOR UPDATE`;
    await tx.$executeRaw`
      INSERT INTO esrt_delivery_attempts
        ("deliveryId", attempt, "startedAt", "statusCode", "latencyMs", error, "responseSnippet")
      VALUES (${d.id}, ${d.attempts}, ${result.startedAt}, ${result.statusCode}, ${result.latencyMs},
              ${result.error}, ${result.snippet})`;
    if (mine.length === 0) return;
    // the user's sync state locked, as a new version's enqueue holds it: a version enqueued meanwhile
    // is seen below and supersedes this one, and one enqueued after it supersedes the delivery put
    // back to pending (without the lock, the two met on the one-waiting-delivery index and the
    // outcome was lost until the lease ran out)
    if (d.userId !== null) await lockState(tx, { userId: d.userId });
    if (d.channel === "webhook" && d.endpointId !== null) {
      await tx.$executeRaw`
        UPDATE esrt_endpoints SET "consecutiveFailures" = "consecutiveFailures" + 1,
          "failingSince" = COALESCE("failingSince", now()), "lastFailureAt" = now()
        WHERE id = ${d.endpointId}`;
    }

    const lastError = result.error ?? `HTTP ${result.statusCode}`;
    if (result.statusCode === 410 && d.endpointId !== null) {
      await tx.$executeRaw`
        UPDATE esrt_endpoints SET enabled = false, "disabledReason" = 'The endpoint answered 410 Gone'
        WHERE id = ${d.endpointId}`;
      // it waits for the endpoint to be enabled again (or is replaced by a newer version)
      const next = (await newerWaits(tx, d)) ? "superseded" : "pending";
      await tx.$executeRaw`
        UPDATE esrt_deliveries SET status = ${next}::"EsrtDeliveryStatus", "leaseUntil" = NULL,
          "nextAttemptAt" = now(), "lastStatusCode" = 410, "lastError" = ${lastError}, "updatedAt" = now()
        WHERE id = ${d.id}`;
      return;
    }
    if (await newerWaits(tx, d)) {
      await tx.$executeRaw`
        UPDATE esrt_deliveries SET status = 'superseded', "leaseUntil" = NULL,
          "lastStatusCode" = ${result.statusCode}, "lastError" = ${lastError}, "updatedAt" = now()
        WHERE id = ${d.id}`;
      return;
    }
    let delay = retryDelayMs(d.attempts, options.retryScale);
    if (delay !== null && (result.statusCode === 429 || result.statusCode === 503)) {
      const asked = parseRetryAfter(result.retryAfter);
      if (asked !== null) delay = Math.max(delay, asked);
    }
    if (delay === null) {
      await tx.$executeRaw`
        UPDATE esrt_deliveries SET status = 'dead', "leaseUntil" = NULL,
          "lastStatusCode" = ${result.statusCode}, "lastError" = ${lastError}, "updatedAt" = now()
        WHERE id = ${d.id}`;
      return;
    }
    await tx.$executeRaw`
      UPDATE esrt_deliveries SET status = 'pending', "leaseUntil" = NULL,
        "nextAttemptAt" = now() + make_interval(secs => ${delay / 1000}::float8),
        "lastStatusCode" = ${result.statusCode}, "lastError" = ${lastError}, "updatedAt" = now()
      WHERE id = ${d.id}`;
  });
}

/**
 * Starts a dispatcher: woken by NOTIFY when deliveries are made, after each delivery, and by a timer
 * for due retries.
 */
export async function startDispatcher(options: DispatcherOptions): Promise<Dispatcher> {
  const cfg = config();
  const { db } = options;
  const concurrency = options.concurrency ?? cfg.ESRT_DISPATCH_CONCURRENCY;
  const retryScale = options.retryScale ?? cfg.ESRT_RETRY_SCALE;
  const timeoutMs = options.timeoutMs ?? cfg.ESRT_WEBHOOK_TIMEOUT_MS;
  const leaseMs = options.leaseMs ?? cfg.ESRT_LEASE_MS ?? timeoutMs + 30_000;
  const pauseAfterMs = options.pauseAfterMs ?? cfg.ESRT_PAUSE_AFTER_MS;
  let lastLeaseSweep = 0;

  async function attempt(d: Claimed): Promise<AttemptResult> {
    const startedAt = new Date();
    if (d.channel === "nats") {
      const started = performance.now();
      try {
        if (!options.nats || !d.uniqueId || !d.version) throw new Error("NATS is not available here");
        await options.nats.publishSnapshot({ uniqueId: d.uniqueId, version: d.version, payload: d.payload });
        // JetStream stored it: delivered on the channel (the Pro app acknowledges separately)
        return {
          startedAt,
          statusCode: 200,
          latencyMs: Math.round(performance.now() - started),
          snippet: null,
          retryAfter: null,
          error: null,
        };
      } catch (err) {
        return {
          startedAt,
          statusCode: null,
          latencyMs: Math.round(performance.now() - started),
          snippet: null,
          retryAfter: null,
          error: `NATS publish failed: ${(err as Error).message}`.slice(0, 500),
        };
      }
    }
    // the endpoint as it was when the delivery was claimed (read by the claim)
    const { url, secretSealed } = d;
    if (!url || !secretSealed) {
      return {
        startedAt,
        statusCode: null,
        latencyMs: 0,
        snippet: null,
        retryAfter: null,
        error: "The endpoint was removed",
      };
    }
    const outcome = await sendWebhook({
      url,
      messageId: d.messageId,
      body: JSON.stringify(d.payload),
      secrets: signingSecrets({ ...d, secretSealed }, startedAt),
      timeoutMs,
      at: startedAt,
    });
    return { ...outcome, startedAt };
  }

  /**
   * An attempt as a span (`deliver <type>`) of the trace that made the delivery: the webhook's
   * request (the HTTP instrumentation's client span, whose traceparent header goes to the Pro app)
   * is its child.
   */
  function attemptTraced(d: Claimed): Promise<AttemptResult> {
    return inSpan(
      {
        name: `deliver ${d.eventType}`,
        kind: SpanKind.INTERNAL,
        parent: contextOf(d),
        attributes: {
          "portal.esrt.delivery.id": d.id,
          "portal.esrt.channel": d.channel,
          "portal.esrt.attempt": d.attempts,
          "portal.esrt.webhook_id": d.messageId,
        },
      },
      async (span) => {
        const result = await attempt(d);
        if (result.statusCode !== null) span?.setAttribute("http.response.status_code", result.statusCode);
        if (!isSuccess(result.statusCode)) {
          span?.setStatus({
            code: SpanStatusCode.ERROR,
            message: result.error ?? `HTTP ${result.statusCode}`,
          });
        }
        return result;
      },
    );
  }

  async function run(d: Claimed): Promise<void> {
    try {
      const result = await (tracingEnabled() ? attemptTraced(d) : attempt(d));
      await recordOutcome(db, d, result, { retryScale });
    } catch (err) {
      // the lease runs out and the delivery is tried again
      log().error({ err, deliveryId: d.id }, "delivery attempt could not be recorded");
    }
  }

  return startLeaseRunner<Claimed>({
    db,
    channel: DELIVERIES_CHANNEL,
    pollMs: options.pollMs ?? 500,
    concurrency,
    async claim(room) {
      if (Date.now() - lastLeaseSweep > 1000) {
        lastLeaseSweep = Date.now();
        await releaseExpiredLeases(db);
      }
      return claim(db, { limit: room, nats: options.nats !== undefined, leaseMs, pauseAfterMs });
    },
    run,
    onClaimError: (err) => log().warn({ err }, "could not claim deliveries; will try again"),
  });
}
