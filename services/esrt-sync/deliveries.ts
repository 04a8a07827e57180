import {
  ENDPOINT_TEST_TYPE,
  type EndpointTestPayload,
  USER_SYNC_TYPE,
  type UserSyncPayload,
} from "@schema/esrt/contract";
import { config } from "@services/shared/config";
import type { Tx } from "@services/shared/db";
import { currentTraceContext } from "@services/shared/telemetry";
import { v7 as uuidv7 } from "uuid";
import type { UserSyncState } from "./state";

// Making deliveries (esrt_deliveries). A user has at most one waiting delivery per channel and
// endpoint: a newer version supersedes the waiting one (latest state wins), and the dispatcher sends
// one at a time per channel, endpoint and user, so the Pro app never receives an older snapshot
// after a newer one.

/** The NOTIFY channel that wakes the dispatchers when deliveries are made (at commit). */
export const DELIVERIES_CHANNEL = "esrt_deliveries";

/** A new webhook-id: "msg_" and a UUIDv7's 32 hex digits (unique, sorts by creation). */
export function newMessageId(): string {
  return `msg_${uuidv7().replaceAll("-", "")}`;
}

/** The payload of a user's snapshot (the same on NATS and by webhook). */
export function userSyncPayload(
  state: Pick<UserSyncState, "snapshot">,
  at: Date = new Date(),
): UserSyncPayload {
  return { type: USER_SYNC_TYPE, timestamp: at.toISOString(), data: state.snapshot };
}

/** Whether this process publishes snapshots on NATS (ESRT_NATS, off where the bus is in-process). */
export function natsChannelEnabled(): boolean {
  return config().ESRT_NATS;
}

/**
 * Makes a delivery of the user's latest snapshot on the NATS channel (when enabled) and to each
 * enabled webhook endpoint (or only those named), superseding any waiting older one, in one
 * statement (the sync's hot path). Call it with the user's state locked (applySnapshot or lockState).
 * Each delivery keeps the active span's trace context (while tracing is on), so its requests are
 * spans of that trace.
 * @returns how many deliveries were made.
 */
export async function enqueueUserSync(
  tx: Tx,
  state: UserSyncState,
  options: { endpointIds?: number[]; nats?: boolean } = {},
): Promise<number> {
  const nats = options.nats ?? natsChannelEnabled();
  const onlyEndpoints = options.endpointIds ?? null;
  const payload = JSON.stringify(userSyncPayload(state));
  // webhook-ids made here (UUIDv7, sorted by creation) for the usual targets (NATS and two
  // endpoints); beyond them, random
  const messageIds = Array.from({ length: (onlyEndpoints?.length ?? 2) + 1 }, newMessageId);
  const trace = currentTraceContext();
  // the newer version supersedes the waiting one first (the insert reads `superseded`), so the
  // one-waiting-delivery index never sees two
  const rows = await tx.$queryRaw<{ made: number; notified: unknown }[]>`
    WITH targets AS (
      SELECT 'nats'::"EsrtChannel" AS channel, NULL::int AS "endpointId" WHERE ${nats}
      UNION ALL
      SELECT 'webhook'::"EsrtChannel", id FROM esrt_endpoints
      WHERE enabled AND (${onlyEndpoints}::int[] IS NULL OR id = ANY(${onlyEndpoints}::int[]))
    ), numbered AS (
      SELECT channel, "endpointId", row_number() OVER (ORDER BY "endpointId" NULLS FIRST) AS n FROM targets
    ), superseded AS (
      UPDATE esrt_deliveries d SET status = 'superseded', "updatedAt" = now()
      FROM numbered t
      WHERE d.channel = t.channel AND COALESCE(d."endpointId", 0) = COALESCE(t."endpointId", 0)
        AND d."userId" = ${state.userId} AND d.status = 'pending'
      RETURNING d.id
    ), made AS (
      INSERT INTO esrt_deliveries
        ("messageId", channel, "endpointId", "userId", "uniqueId", version, "eventType", payload,
         traceparent, tracestate)
      SELECT COALESCE((${messageIds}::text[])[t.n], 'msg_' || replace(gen_random_uuid()::text, '-', '')),
             t.channel, t."endpointId", ${state.userId}, ${state.uniqueId},
             ${state.latestVersion}, ${USER_SYNC_TYPE}, ${payload}::jsonb,
             ${trace?.traceparent ?? null}, ${trace?.tracestate ?? null}
      FROM numbered t WHERE (SELECT count(*) FROM superseded) >= 0
      RETURNING id
    )
    SELECT count(*)::int AS made,
           CASE WHEN count(*) > 0 THEN (SELECT 1 FROM pg_notify(${DELIVERIES_CHANNEL}, '')) END AS notified
    FROM made`;
  return rows[0]?.made ?? 0;
}

/**
 * Makes a test event's delivery to one endpoint (it waits behind nothing: it names no user).
 * @returns the delivery's id.
 */
export async function enqueueTestEvent(tx: Tx, endpointId: number, at: Date = new Date()): Promise<number> {
  const payload: EndpointTestPayload = {
    type: ENDPOINT_TEST_TYPE,
    timestamp: at.toISOString(),
    data: { message: "A test event from the portal", endpointId },
  };
  const trace = currentTraceContext();
  const rows = await tx.$queryRaw<{ id: number }[]>`
    INSERT INTO esrt_deliveries ("messageId", channel, "endpointId", "eventType", payload, traceparent, tracestate)
    VALUES (${newMessageId()}, 'webhook', ${endpointId}, ${ENDPOINT_TEST_TYPE}, ${JSON.stringify(payload)}::jsonb,
            ${trace?.traceparent ?? null}, ${trace?.tracestate ?? null})
    RETURNING id`;
  await tx.$executeRaw`SELECT pg_notify(${DELIVERIES_CHANNEL}, '')`;
  const row = rows[0];
  if (!row) throw new Error("the test delivery was not inserted");
  return row.id;
}
