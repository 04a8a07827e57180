import { instant } from "@schema/validation/primitives";
import { uniqueIdSchema } from "@schema/validation/user";
import { audit } from "@services/shared/audit";
import { config } from "@services/shared/config";
import { idCursor } from "@services/shared/cursor";
import type { Db } from "@services/shared/db";
import { AppError } from "@services/shared/errors";
import type { Prisma } from "@services/shared/generated/prisma/client";
import type { EsrtChannel, EsrtDeliveryStatus } from "@services/shared/generated/prisma/enums";
import { z } from "zod";
import { enqueueUserSync } from "./deliveries";
import { type EndpointView, type EsrtHealth, listEndpoints } from "./endpoints";
import { lockState } from "./state";

// What the sync page reads and does (manage:esrt_sync; the gateway checks the permission): the
// overview, the delivery log with its attempts, and sending again: one delivery, the failed ones
// since a time, one user.

export interface SyncCounts {
  users: number;
  synced: number;
  pending: number;
  failing: number;
  dead: number;
}

export interface NatsChannelView {
  enabled: boolean;
  health: EsrtHealth;
  stream: string;
  subjectPrefix: string;
  lastPublishedAt: Date | null;
  lastAcknowledgedAt: Date | null;
  lastError: string | null;
}

export interface SyncOverview {
  counts: SyncCounts;
  nats: NatsChannelView;
  endpoints: EndpointView[];
}

/** Users by sync state (synced, dead, failing, pending: each user counted once, in that order). */
export async function syncCounts(db: Db): Promise<SyncCounts> {
  const rows = await db.prisma.$queryRaw<SyncCounts[]>`
    WITH per_user AS (
      SELECT s."acknowledgedVersion" >= s."latestVersion" AS synced,
             EXISTS (SELECT 1 FROM esrt_deliveries d
                     WHERE d."userId" = s."userId" AND d.version = s."latestVersion" AND d.status = 'dead') AS dead,
             EXISTS (SELECT 1 FROM esrt_deliveries d
                     WHERE d."userId" = s."userId" AND d.version = s."latestVersion"
                       AND d.status IN ('pending', 'sending') AND d."lastError" IS NOT NULL) AS failing
      FROM esrt_user_states s
    )
    SELECT count(*)::int AS users,
           count(*) FILTER (WHERE synced)::int AS synced,
           count(*) FILTER (WHERE NOT synced AND dead)::int AS dead,
           count(*) FILTER (WHERE NOT synced AND NOT dead AND failing)::int AS failing,
           count(*) FILTER (WHERE NOT synced AND NOT dead AND NOT failing)::int AS pending
    FROM per_user`;
  return rows[0] ?? { users: 0, synced: 0, pending: 0, failing: 0, dead: 0 };
}

/** The NATS channel's health: disabled when off, degraded while a publish is being retried. */
export async function natsChannel(db: Db): Promise<NatsChannelView> {
  const cfg = config();
  const rows = await db.prisma.$queryRaw<
    {
      lastPublishedAt: Date | null;
      retrying: number;
      lastError: string | null;
      lastAcknowledgedAt: Date | null;
    }[]
  >`
    SELECT (SELECT max("deliveredAt") FROM esrt_deliveries WHERE channel = 'nats') AS "lastPublishedAt",
           (SELECT count(*)::int FROM esrt_deliveries
             WHERE channel = 'nats' AND status IN ('pending', 'sending') AND "lastError" IS NOT NULL) AS retrying,
           (SELECT "lastError" FROM esrt_deliveries
             WHERE channel = 'nats' AND status IN ('pending', 'sending', 'dead') AND "lastError" IS NOT NULL
             ORDER BY "updatedAt" DESC LIMIT 1) AS "lastError",
           (SELECT max("acknowledgedAt") FROM esrt_user_states WHERE "acknowledgedVia" = 'nats') AS "lastAcknowledgedAt"`;
  const row = rows[0] ?? { lastPublishedAt: null, retrying: 0, lastError: null, lastAcknowledgedAt: null };
  return {
    enabled: cfg.ESRT_NATS,
    health: !cfg.ESRT_NATS ? "disabled" : row.retrying > 0 ? "degraded" : "healthy",
    stream: cfg.ESRT_STREAM,
    subjectPrefix: cfg.ESRT_SUBJECT_PREFIX,
    lastPublishedAt: row.lastPublishedAt,
    lastAcknowledgedAt: row.lastAcknowledgedAt,
    lastError: row.retrying > 0 ? row.lastError : null,
  };
}

/** The sync page's overview: counts, the NATS channel and every endpoint. */
export async function syncOverview(db: Db): Promise<SyncOverview> {
  const [counts, nats, endpoints] = await Promise.all([syncCounts(db), natsChannel(db), listEndpoints(db)]);
  return { counts, nats, endpoints };
}

export const DELIVERY_STATUSES = ["pending", "sending", "delivered", "dead", "superseded"] as const;

/** The delivery log's filter (shared by GraphQL and any other surface). */
export const deliveryFilterSchema = z.object({
  after: z.string().max(100).optional(),
  first: z.number().int().min(1, "first is 1 to 100").max(100, "first is 1 to 100").optional(),
  status: z.array(z.enum(DELIVERY_STATUSES)).max(5).optional(),
  channel: z.enum(["nats", "webhook", "api"]).optional(),
  endpointId: z.number().int().min(1).max(2_147_483_647).optional(),
  user: z
    .string()
    .max(200, "At most 200 characters")
    .refine((v) => !v.includes("\u0000"), "Text cannot contain NUL characters")
    .optional(),
  from: instant().optional(),
  to: instant().optional(),
});

export type DeliveryFilter = z.infer<typeof deliveryFilterSchema>;

export interface DeliveryView {
  id: number;
  messageId: string;
  channel: EsrtChannel;
  endpointId: number | null;
  endpointUrl: string | null;
  userId: number | null;
  uniqueId: string | null;
  userName: string | null;
  version: number | null;
  eventType: string;
  status: EsrtDeliveryStatus;
  attempts: number;
  nextAttemptAt: Date | null;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: Date;
  deliveredAt: Date | null;
  payload: unknown;
}

export interface DeliveryPage {
  nodes: DeliveryView[];
  endCursor: string | null;
  hasNextPage: boolean;
  totalCount: number;
}

const cursor = idCursor("d", () => new AppError("BAD_REQUEST", "Invalid cursor"));

const deliveryInclude = { endpoint: { select: { url: true } } } as const;
type DeliveryRow = Prisma.EsrtDeliveryGetPayload<{ include: typeof deliveryInclude }>;

function nameOf(payload: unknown): string | null {
  const data = (payload as { data?: { firstName?: unknown; lastName?: unknown } } | null)?.data;
  if (typeof data?.firstName !== "string" || typeof data.lastName !== "string") return null;
  return `${data.firstName} ${data.lastName}`.trim();
}

function deliveryView(row: DeliveryRow): DeliveryView {
  return {
    id: row.id,
    messageId: row.messageId,
    channel: row.channel,
    endpointId: row.endpointId,
    endpointUrl: row.endpoint?.url ?? null,
    userId: row.userId,
    uniqueId: row.uniqueId,
    userName: nameOf(row.payload),
    version: row.version,
    eventType: row.eventType,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.status === "pending" ? row.nextAttemptAt : null,
    lastStatusCode: row.lastStatusCode,
    lastError: row.lastError,
    createdAt: row.createdAt,
    deliveredAt: row.deliveredAt,
    payload: row.payload,
  };
}

/**
 * The delivery log, newest first, filtered (status, channel, endpoint, user, time) in keyset pages.
 * @throws AppError VALIDATION_FAILED for a bad filter, BAD_REQUEST for a bad cursor.
 */
export async function listDeliveries(db: Db, input: unknown): Promise<DeliveryPage> {
  const parsed = deliveryFilterSchema.safeParse(input ?? {});
  if (!parsed.success)
    throw new AppError("VALIDATION_FAILED", parsed.error.issues[0]?.message ?? "Invalid filter");
  const f = parsed.data;
  const first = f.first ?? 25;
  const where: Prisma.EsrtDeliveryWhereInput = {};
  if (f.status && f.status.length > 0) where.status = { in: f.status };
  if (f.channel) where.channel = f.channel;
  if (f.endpointId) where.endpointId = f.endpointId;
  if (f.from || f.to) where.createdAt = { ...(f.from ? { gte: f.from } : {}), ...(f.to ? { lt: f.to } : {}) };
  const text = f.user?.trim().toLowerCase();
  if (text) {
    const users = await db.prisma.$queryRaw<{ userId: number }[]>`
      SELECT "userId" FROM esrt_user_states
      WHERE "searchText" LIKE ${`%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`} LIMIT 1000`;
    where.userId = { in: users.map((u) => u.userId) };
  }
  const paged: Prisma.EsrtDeliveryWhereInput = f.after
    ? { AND: [where, { id: { lt: cursor.decode(f.after) } }] }
    : where;
  const [rows, totalCount] = await Promise.all([
    db.prisma.esrtDelivery.findMany({
      where: paged,
      orderBy: { id: "desc" },
      take: first + 1,
      include: deliveryInclude,
    }),
    db.prisma.esrtDelivery.count({ where }),
  ]);
  const hasNextPage = rows.length > first;
  const nodes = rows.slice(0, first).map(deliveryView);
  const last = nodes.at(-1);
  return { nodes, endCursor: last ? cursor.encode(last.id) : null, hasNextPage, totalCount };
}

/** One delivery, or null. */
export async function getDelivery(db: Db, id: number): Promise<DeliveryView | null> {
  const row = await db.prisma.esrtDelivery.findUnique({ where: { id }, include: deliveryInclude });
  return row ? deliveryView(row) : null;
}

export interface AttemptView {
  attempt: number;
  startedAt: Date;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  responseSnippet: string | null;
}

/** A delivery's attempts, oldest first. */
export async function deliveryAttempts(db: Db, deliveryId: number): Promise<AttemptView[]> {
  return db.prisma.esrtDeliveryAttempt.findMany({
    where: { deliveryId },
    orderBy: { id: "asc" },
    select: {
      attempt: true,
      startedAt: true,
      statusCode: true,
      latencyMs: true,
      error: true,
      responseSnippet: true,
    },
  });
}

/**
 * Sends a delivered or dead delivery again, with the same webhook-id and a fresh retry schedule.
 * Only the user's latest version is sent again (an older one would reach the Pro app after a newer).
 * @throws AppError NOT_FOUND; CONFLICT when it is waiting already, superseded, or not the latest.
 */
export async function redeliver(props: {
  db: Db;
  actorId: number;
  id: number;
  ip?: string | null;
}): Promise<DeliveryView> {
  await props.db.prisma.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<
      {
        id: number;
        status: EsrtDeliveryStatus;
        userId: number | null;
        version: number | null;
        channel: EsrtChannel;
        endpointId: number | null;
      }[]
    >`SELECT id, status, "userId", version, channel, "endpointId" FROM esrt_deliveries WHERE id = ${props.id} FOR UPDATE`;
    const d = rows[0];
    if (!d) throw new AppError("NOT_FOUND", "Delivery not found");
    if (d.status !== "delivered" && d.status !== "dead") {
      throw new AppError("CONFLICT", "Only a delivered or dead delivery can be sent again");
    }
    if (d.userId !== null) {
      const state = await lockState(tx, { userId: d.userId });
      if (!state || d.version !== state.latestVersion) {
        throw new AppError("CONFLICT", "A newer version of this user exists: resync the user instead");
      }
      const waiting = await tx.$queryRaw<{ n: number }[]>`
        SELECT 1 AS n FROM esrt_deliveries
        WHERE "userId" = ${d.userId} AND channel = ${d.channel}::"EsrtChannel"
          AND COALESCE("endpointId", 0) = ${d.endpointId ?? 0} AND status IN ('pending', 'sending') LIMIT 1`;
      if (waiting.length > 0)
        throw new AppError("CONFLICT", "This user's latest version is already on its way");
    }
    await tx.$executeRaw`
      UPDATE esrt_deliveries SET status = 'pending', attempts = 0, "nextAttemptAt" = now(), "leaseUntil" = NULL,
        "updatedAt" = now()
      WHERE id = ${props.id}`;
    await tx.$executeRaw`SELECT pg_notify('esrt_deliveries', '')`;
    await audit(tx, {
      action: "esrt.delivery_redelivered",
      actorId: props.actorId,
      targetType: "esrt_delivery",
      targetId: props.id,
      ip: props.ip,
    });
  });
  const view = await getDelivery(props.db, props.id);
  if (!view) throw new AppError("NOT_FOUND", "Delivery not found");
  return view;
}

/**
 * Sends again what failed since a time (optionally to one endpoint): dead deliveries that are still
 * their user's latest get a fresh schedule, and deliveries being retried are tried now.
 * @returns how many deliveries were queued.
 */
export async function replayFailed(props: {
  db: Db;
  actorId: number;
  since: Date;
  endpointId?: number | null;
  ip?: string | null;
}): Promise<number> {
  const endpointId = props.endpointId ?? null;
  return props.db.prisma.$transaction(async (tx) => {
    // first those being retried (before the revived ones join them as pending)
    const hurried = await tx.$executeRaw`
      UPDATE esrt_deliveries SET "nextAttemptAt" = now(), "updatedAt" = now()
      WHERE status = 'pending' AND "lastError" IS NOT NULL AND "nextAttemptAt" > now()
        AND "createdAt" >= ${props.since}
        AND (${endpointId}::int IS NULL OR "endpointId" = ${endpointId}::int)`;
    const revived = await tx.$executeRaw`
      WITH pick AS (
        SELECT DISTINCT ON (d.channel, COALESCE(d."endpointId", 0), COALESCE(d."userId", -d.id)) d.id
        FROM esrt_deliveries d
        LEFT JOIN esrt_user_states s ON s."userId" = d."userId"
        WHERE d.status = 'dead' AND d."createdAt" >= ${props.since}
          AND (${endpointId}::int IS NULL OR d."endpointId" = ${endpointId}::int)
          AND (d."userId" IS NULL OR d.version = s."latestVersion")
          AND NOT EXISTS (
            SELECT 1 FROM esrt_deliveries w
            WHERE w.status IN ('pending', 'sending') AND w.channel = d.channel
              AND COALESCE(w."endpointId", 0) = COALESCE(d."endpointId", 0) AND w."userId" = d."userId")
        ORDER BY d.channel, COALESCE(d."endpointId", 0), COALESCE(d."userId", -d.id), d.id DESC
      )
      UPDATE esrt_deliveries SET status = 'pending', attempts = 0, "nextAttemptAt" = now(), "leaseUntil" = NULL,
        "updatedAt" = now()
      WHERE id IN (SELECT id FROM pick)`;
    await tx.$executeRaw`SELECT pg_notify('esrt_deliveries', '')`;
    await audit(tx, {
      action: "esrt.deliveries_replayed",
      actorId: props.actorId,
      ip: props.ip,
      metadata: { since: props.since.toISOString(), endpointId, revived, hurried },
    });
    return revived + hurried;
  });
}

/**
 * Sends a user's latest snapshot again on every channel (NATS and each enabled endpoint).
 * @returns the deliveries made. @throws AppError NOT_FOUND, VALIDATION_FAILED
 */
export async function resyncUser(props: {
  db: Db;
  actorId: number;
  uniqueId: string;
  ip?: string | null;
}): Promise<number> {
  const parsed = uniqueIdSchema.safeParse(props.uniqueId);
  if (!parsed.success)
    throw new AppError("VALIDATION_FAILED", parsed.error.issues[0]?.message ?? "Invalid unique id");
  return props.db.prisma.$transaction(async (tx) => {
    const state = await lockState(tx, { uniqueId: parsed.data });
    if (!state) throw new AppError("NOT_FOUND", "User not found");
    const made = await enqueueUserSync(tx, state);
    await audit(tx, {
      action: "esrt.user_resynced",
      actorId: props.actorId,
      targetType: "user",
      targetId: state.userId,
      ip: props.ip,
    });
    return made;
  });
}
