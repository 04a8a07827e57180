import { randomBytes } from "node:crypto";
import { esrtLabelSchema } from "@schema/esrt/contract";
import { audit } from "@services/shared/audit";
import { config } from "@services/shared/config";
import type { Db } from "@services/shared/db";
import { AppError } from "@services/shared/errors";
import { sealSetting } from "@services/shared/sealed";
import { enqueueTestEvent } from "./deliveries";
import { checkEndpointUrl } from "./urlSafety";

// The Pro app's webhook endpoints (esrt_endpoints): made, edited, disabled and enabled again, their
// signing secret rotated, a test event sent. A secret is shown once, when made; it is stored sealed
// and no API returns it again.

export type EsrtHealth = "healthy" | "degraded" | "paused" | "disabled";

/** An endpoint as the sync page shows it (never its secret). */
export interface EndpointView {
  id: number;
  url: string;
  description: string | null;
  enabled: boolean;
  health: EsrtHealth;
  disabledReason: string | null;
  consecutiveFailures: number;
  failingSince: Date | null;
  lastSuccessAt: Date | null;
  lastFailureAt: Date | null;
  secretRotatedAt: Date | null;
  previousSecretExpiresAt: Date | null;
  createdAt: Date;
  waitingDeliveries: number;
}

interface EndpointRow extends Omit<EndpointView, "health" | "waitingDeliveries"> {
  waitingDeliveries?: number;
}

/**
 * An endpoint's health: disabled (by an administrator or a 410), paused (failing without a success
 * for ESRT_PAUSE_AFTER_MS: no automatic attempts until enabled again), degraded (its last attempt
 * failed), or healthy.
 */
export function endpointHealth(
  e: Pick<EndpointView, "enabled" | "failingSince" | "consecutiveFailures">,
  now: Date = new Date(),
  pauseAfterMs: number = config().ESRT_PAUSE_AFTER_MS,
): EsrtHealth {
  if (!e.enabled) return "disabled";
  if (e.failingSince && now.getTime() - e.failingSince.getTime() >= pauseAfterMs) return "paused";
  if (e.consecutiveFailures > 0) return "degraded";
  return "healthy";
}

function view(row: EndpointRow): EndpointView {
  return { ...row, health: endpointHealth(row), waitingDeliveries: Number(row.waitingDeliveries ?? 0) };
}

/** A new signing secret: "whsec_" and 32 random bytes in base64 (Standard Webhooks). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

function description(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  const parsed = esrtLabelSchema.safeParse(raw);
  if (!parsed.success)
    throw new AppError("VALIDATION_FAILED", parsed.error.issues[0]?.message ?? "Invalid description");
  return parsed.data === "" ? null : parsed.data;
}

/** Every endpoint, oldest first, with its waiting deliveries. */
export async function listEndpoints(db: Db): Promise<EndpointView[]> {
  const rows = await db.prisma.$queryRaw<EndpointRow[]>`
    SELECT e.id, e.url, e.description, e.enabled, e."disabledReason", e."consecutiveFailures", e."failingSince",
           e."lastSuccessAt", e."lastFailureAt", e."secretRotatedAt", e."previousSecretExpiresAt", e."createdAt",
           (SELECT count(*)::int FROM esrt_deliveries d
             WHERE d."endpointId" = e.id AND d.status IN ('pending', 'sending')) AS "waitingDeliveries"
    FROM esrt_endpoints e ORDER BY e.id`;
  return rows.map(view);
}

/** One endpoint. @throws AppError NOT_FOUND */
export async function getEndpoint(db: Db, id: number): Promise<EndpointView> {
  const found = (await listEndpoints(db)).find((e) => e.id === id);
  if (!found) throw new AppError("NOT_FOUND", "Endpoint not found");
  return found;
}

/**
 * Adds an endpoint (https, not private unless allowed) with a new secret, returned this once.
 * @throws AppError VALIDATION_FAILED with the rule the URL breaks.
 */
export async function createEndpoint(props: {
  db: Db;
  actorId: number;
  url: string;
  description?: string | null;
  ip?: string | null;
}): Promise<{ endpoint: EndpointView; secret: string }> {
  const url = checkEndpointUrl(props.url);
  const secret = newWebhookSecret();
  const id = await props.db.prisma.$transaction(async (tx) => {
    const row = await tx.esrtEndpoint.create({
      data: {
        url,
        description: description(props.description),
        secretSealed: sealSetting(secret),
        createdById: props.actorId,
      },
    });
    await audit(tx, {
      action: "esrt.endpoint_created",
      actorId: props.actorId,
      targetType: "esrt_endpoint",
      targetId: row.id,
      ip: props.ip,
      metadata: { url },
    });
    return row.id;
  });
  return { endpoint: await getEndpoint(props.db, id), secret };
}

/** Changes an endpoint's URL and description. @throws AppError NOT_FOUND, VALIDATION_FAILED */
export async function updateEndpoint(props: {
  db: Db;
  actorId: number;
  id: number;
  url: string;
  description?: string | null;
  ip?: string | null;
}): Promise<EndpointView> {
  const url = checkEndpointUrl(props.url);
  await props.db.prisma.$transaction(async (tx) => {
    const before = await tx.esrtEndpoint.findUnique({ where: { id: props.id } });
    if (!before) throw new AppError("NOT_FOUND", "Endpoint not found");
    await tx.esrtEndpoint.update({
      where: { id: props.id },
      data: { url, description: description(props.description) },
    });
    await audit(tx, {
      action: "esrt.endpoint_updated",
      actorId: props.actorId,
      targetType: "esrt_endpoint",
      targetId: props.id,
      ip: props.ip,
      metadata: {
        before: { url: before.url, description: before.description },
        after: { url, description: props.description ?? null },
      },
    });
  });
  return getEndpoint(props.db, props.id);
}

/**
 * Disables an endpoint (no attempts; new changes are not queued for it) or enables it again, which
 * also resumes a paused one or one a 410 disabled: its failure count starts over.
 * @throws AppError NOT_FOUND
 */
export async function setEndpointEnabled(props: {
  db: Db;
  actorId: number;
  id: number;
  enabled: boolean;
  ip?: string | null;
}): Promise<EndpointView> {
  await props.db.prisma.$transaction(async (tx) => {
    const before = await tx.esrtEndpoint.findUnique({ where: { id: props.id } });
    if (!before) throw new AppError("NOT_FOUND", "Endpoint not found");
    await tx.esrtEndpoint.update({
      where: { id: props.id },
      data: props.enabled
        ? { enabled: true, disabledReason: null, consecutiveFailures: 0, failingSince: null }
        : { enabled: false, disabledReason: "Disabled by an administrator" },
    });
    if (props.enabled) await tx.$executeRaw`SELECT pg_notify('esrt_deliveries', '')`;
    await audit(tx, {
      action: props.enabled ? "esrt.endpoint_enabled" : "esrt.endpoint_disabled",
      actorId: props.actorId,
      targetType: "esrt_endpoint",
      targetId: props.id,
      ip: props.ip,
    });
  });
  return getEndpoint(props.db, props.id);
}

/**
 * A new signing secret for an endpoint, returned this once; the old one keeps signing beside it for
 * ESRT_SECRET_GRACE_MS, so the Pro app can switch without losing a message.
 * @throws AppError NOT_FOUND
 */
export async function rotateEndpointSecret(props: {
  db: Db;
  actorId: number;
  id: number;
  ip?: string | null;
}): Promise<{ endpoint: EndpointView; secret: string }> {
  const secret = newWebhookSecret();
  await props.db.prisma.$transaction(async (tx) => {
    const before = await tx.esrtEndpoint.findUnique({ where: { id: props.id } });
    if (!before) throw new AppError("NOT_FOUND", "Endpoint not found");
    const now = new Date();
    await tx.esrtEndpoint.update({
      where: { id: props.id },
      data: {
        secretSealed: sealSetting(secret),
        previousSecretSealed: before.secretSealed,
        previousSecretExpiresAt: new Date(now.getTime() + config().ESRT_SECRET_GRACE_MS),
        secretRotatedAt: now,
      },
    });
    await audit(tx, {
      action: "esrt.endpoint_secret_rotated",
      actorId: props.actorId,
      targetType: "esrt_endpoint",
      targetId: props.id,
      ip: props.ip,
    });
  });
  return { endpoint: await getEndpoint(props.db, props.id), secret };
}

/** Queues a test event to an endpoint. @returns the delivery's id. @throws AppError NOT_FOUND */
export async function sendTestEvent(props: { db: Db; endpointId: number }): Promise<number> {
  return props.db.prisma.$transaction(async (tx) => {
    const found = await tx.esrtEndpoint.findUnique({ where: { id: props.endpointId } });
    if (!found) throw new AppError("NOT_FOUND", "Endpoint not found");
    if (!found.enabled) throw new AppError("CONFLICT", "The endpoint is disabled: enable it first");
    return enqueueTestEvent(tx, props.endpointId);
  });
}
