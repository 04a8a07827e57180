import { createHash, randomBytes } from "node:crypto";
import { API_KEY_PATTERN, createApiKeySchema } from "@schema/esrt/apiKeys";
import { MAX_DB_ID } from "@schema/validation/primitives";
import { audit } from "@services/shared/audit";
import type { Db } from "@services/shared/db";
import { AppError } from "@services/shared/errors";
import type { EsrtApiKey } from "@services/shared/generated/prisma/client";
import { parse } from "@services/shared/validation";

// API keys of the Pro app (issue 10): made by an administrator with manage:esrt_sync, shown once,
// stored as their sha256 (a key is 256 random bits, so a slow hash would add nothing), revocable.
// A key opens GET /api/users/by-uniqueid/{uniqueId} and POST /api/esrt/ack and nothing else
// (gateway/src/rest/esrt.ts).

/** An API key as lists and answers show it: never its hash. */
export type ApiKeyView = Omit<EsrtApiKey, "keyHash">;

/** How many leading characters of a key are kept to tell keys apart ("esrtk_" and 8 more). */
export const API_KEY_PREFIX_LENGTH = 14;

/** lastUsedAt is written at most this often per key, so a busy Pro app does not write on each call. */
const LAST_USED_RESOLUTION_MS = 60_000;

const VIEW = {
  id: true,
  name: true,
  prefix: true,
  createdById: true,
  createdAt: true,
  lastUsedAt: true,
  revokedAt: true,
} as const;

function hashOf(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/**
 * Makes an API key and audits it (esrt.api_key_created). The key itself is in the answer only:
 * the database keeps its prefix and hash.
 * @throws AppError VALIDATION_FAILED ('Name is required', 'At most 200 characters', unsafe text).
 */
export async function createApiKey(props: {
  db: Db;
  name: string;
  actorId: number | null;
}): Promise<{ apiKey: ApiKeyView; key: string }> {
  const { name } = parse(createApiKeySchema, { name: props.name });
  const key = `esrtk_${randomBytes(32).toString("base64url")}`;
  const apiKey = await props.db.prisma.$transaction(async (tx) => {
    const row = await tx.esrtApiKey.create({
      data: {
        name,
        prefix: key.slice(0, API_KEY_PREFIX_LENGTH),
        keyHash: hashOf(key),
        createdById: props.actorId,
      },
      select: VIEW,
    });
    await auditKey(tx, "esrt.api_key_created", props.actorId, row);
    return row;
  });
  return { apiKey, key };
}

/** Every API key, the newest first, revoked ones included. */
export async function listApiKeys(db: Db): Promise<ApiKeyView[]> {
  return db.prisma.esrtApiKey.findMany({ select: VIEW, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
}

/** Audits `action` on the API key `key` by `actorId`, naming the key by its name and prefix. */
function auditKey(
  writer: Parameters<typeof audit>[0],
  action: "esrt.api_key_created" | "esrt.api_key_revoked",
  actorId: number | null,
  key: Pick<ApiKeyView, "id" | "name" | "prefix">,
): Promise<void> {
  return audit(writer, {
    action,
    actorId,
    targetType: "esrt_api_key",
    targetId: key.id,
    metadata: { name: key.name, prefix: key.prefix },
  });
}

/**
 * Revokes an API key (it authenticates nothing from then on) and audits it (esrt.api_key_revoked).
 * Revoking a revoked key changes nothing and is not audited again.
 * @throws AppError NOT_FOUND 'API key not found'.
 */
export async function revokeApiKey(props: {
  db: Db;
  id: number;
  actorId: number | null;
}): Promise<ApiKeyView> {
  const { id } = props;
  if (!Number.isInteger(id) || id < 1 || id > MAX_DB_ID) throw new AppError("NOT_FOUND", "API key not found");
  return props.db.prisma.$transaction(async (tx) => {
    const revoked = await tx.esrtApiKey.updateManyAndReturn({
      where: { id, revokedAt: null },
      data: { revokedAt: new Date() },
      select: VIEW,
    });
    const row = revoked[0];
    if (row) {
      await auditKey(tx, "esrt.api_key_revoked", props.actorId, row);
      return row;
    }
    const existing = await tx.esrtApiKey.findUnique({ where: { id }, select: VIEW });
    if (!existing) throw new AppError("NOT_FOUND", "API key not found");
    return existing;
  });
}

/**
 * The live API key `key` is, or null (malformed, unknown or revoked). The lookup is by the key's
 * sha256, so no comparison of secret bytes takes time that depends on them. Records the use in
 * lastUsedAt, at most once a minute per key.
 */
export async function authenticateApiKey(db: Db, key: string): Promise<ApiKeyView | null> {
  if (!API_KEY_PATTERN.test(key)) return null;
  const found = await db.prisma.esrtApiKey.findUnique({ where: { keyHash: hashOf(key) }, select: VIEW });
  if (!found || found.revokedAt) return null;
  const now = new Date();
  if (!found.lastUsedAt || now.getTime() - found.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    await db.prisma.esrtApiKey.updateMany({
      where: {
        id: found.id,
        OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: new Date(now.getTime() - LAST_USED_RESOLUTION_MS) } }],
      },
      data: { lastUsedAt: now },
    });
    return { ...found, lastUsedAt: now };
  }
  return found;
}
