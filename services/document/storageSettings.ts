import { randomBytes, randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import {
  DEFAULT_ALLOWED_FILE_TYPES,
  DEFAULT_MAX_FILE_SIZE,
  DOCUMENT_MESSAGES,
  KNOWN_FILE_TYPE_NAMES,
  type StorageSettings,
  storageSettingsSchema,
} from "@schema/validation/document";
import {
  PrivateAddressError,
  privateAddressesAllowed,
  resolveAllowedAddress,
} from "@services/shared/addressSafety";
import { audit } from "@services/shared/audit";
import { config } from "@services/shared/config";
import type { Db } from "@services/shared/db";
import { AppError } from "@services/shared/errors";
import type { StorageConfig } from "@services/shared/generated/prisma/client";
import { sealSetting, unsealSetting } from "@services/shared/sealed";
import { withTimeout } from "@services/shared/timeout";
import { parse, type SettingsUpdateProps } from "@services/shared/validation";
import type { DocumentActor } from "./actor";
import {
  type CloudSettings,
  loadStorageConfig,
  localDocumentStorage,
  type StorageBackendName,
  type StoragePort,
} from "./storage";
import { createS3Storage } from "./storage/s3";

// The storage settings (spec §5 "Storage settings", manage:config, checked by the caller): where new
// uploads go, how large a file may be and which types are allowed. One row (the lowest id) holds
// them; the cloud secret in it is sealed and never leaves this module except to sign requests.

/** The settings as the admin page shows them: never the secret, only whether one is stored. */
export interface StorageSettingsView {
  storageType: StorageBackendName;
  maxFileSize: number;
  allowedFileTypes: string[];
  /** every type the portal can verify by content (the form's options) */
  knownFileTypes: string[];
  cloudEndpoint: string | null;
  cloudRegion: string | null;
  cloudBucket: string | null;
  cloudForcePathStyle: boolean;
  cloudAccessKeyId: string | null;
  cloudSecretSet: boolean;
  updatedAt: Date;
  updatedBy: string | null;
}

/** Stored documents of one backend. */
export interface StorageUsage {
  backend: StorageBackendName;
  documents: number;
  bytes: number;
}

/** What the browser checks before an upload starts (the same rules as the server). */
export interface UploadPolicy {
  endpoint: "/api/uploads";
  maxFileSize: number;
  allowedFileTypes: string[];
}

/** The outcome of "Test connection", in words for the admin. */
export interface StorageTestResult {
  ok: boolean;
  message: string;
  latencyMs: number;
}

const TEST_DEADLINE_MS = 8000;

function present(row: StorageConfig): StorageSettingsView {
  return {
    storageType: row.storageType,
    maxFileSize: Number(row.maxFileSize),
    allowedFileTypes: [...row.allowedFileTypes],
    knownFileTypes: [...KNOWN_FILE_TYPE_NAMES],
    cloudEndpoint: row.cloudEndpoint,
    cloudRegion: row.cloudRegion,
    cloudBucket: row.cloudBucket,
    cloudForcePathStyle: row.cloudForcePathStyle,
    cloudAccessKeyId: row.cloudAccessKeyId,
    cloudSecretSet: row.cloudSecretSealed !== null,
    updatedAt: row.updatedAt,
    updatedBy: row.updatedBy,
  };
}

/** The settings row, created with the defaults when the seed has not made it. */
async function settingsRow(db: Db): Promise<StorageConfig> {
  return (await loadStorageConfig(db)) ?? db.prisma.storageConfig.create({ data: {} });
}

function secretRequired(): AppError {
  return new AppError("VALIDATION_FAILED", DOCUMENT_MESSAGES.secretRequired, {
    details: { errors: { cloudSecretAccessKey: [DOCUMENT_MESSAGES.secretRequired] } },
  });
}

/** The settings (never the secret). @throws Prisma errors. */
export async function getStorageSettings(db: Db): Promise<StorageSettingsView> {
  return present(await settingsRow(db));
}

/**
 * Changes the storage settings: new uploads go to the chosen backend, old files stay where they
 * are. An empty secret keeps the stored one; a new one is sealed. The change is audited with its
 * before and after (without the secret).
 * @throws AppError VALIDATION_FAILED with the schema's message, or 'Secret key is required for cloud
 * storage' when cloud is chosen and no secret is given or stored.
 */
export async function updateStorageSettings(
  props: SettingsUpdateProps<DocumentActor>,
): Promise<StorageSettingsView> {
  const input = parse(storageSettingsSchema, props.input);
  const newSecret = input.cloudSecretAccessKey;
  const sealed = newSecret ? sealSetting(newSecret) : undefined;
  const current = await settingsRow(props.db);
  return props.db.prisma.$transaction(async (tx) => {
    const [locked] = await tx.$queryRaw<{ cloudSecretSealed: string | null }[]>`
      SELECT "cloudSecretSealed" FROM storage_config WHERE id = ${current.id} FOR UPDATE`;
    const before = await tx.storageConfig.findUniqueOrThrow({ where: { id: current.id } });
    if (input.storageType === "cloud" && !sealed && !locked?.cloudSecretSealed) throw secretRequired();
    const after = await tx.storageConfig.update({
      where: { id: current.id },
      data: {
        storageType: input.storageType,
        maxFileSize: BigInt(input.maxFileSize),
        allowedFileTypes: input.allowedFileTypes,
        cloudEndpoint: input.cloudEndpoint ?? null,
        cloudRegion: input.cloudRegion ?? null,
        cloudBucket: input.cloudBucket ?? null,
        cloudForcePathStyle: input.cloudForcePathStyle,
        cloudAccessKeyId: input.cloudAccessKeyId ?? null,
        ...(sealed ? { cloudSecretSealed: sealed } : {}),
        updatedBy: props.actor.name,
      },
    });
    await audit(tx, {
      action: "storage.settings_updated",
      actorId: props.actor.id,
      targetType: "storage_config",
      targetId: after.id,
      ip: props.ip,
      metadata: { before: auditView(before), after: auditView(after), secretChanged: sealed !== undefined },
    });
    return present(after);
  });
}

function auditView(row: StorageConfig) {
  const { updatedAt: _updatedAt, ...view } = present(row);
  const { knownFileTypes: _known, ...rest } = view;
  return rest;
}

/** Count and bytes of the stored documents on each backend (both backends, zeros included). */
export async function storageUsage(db: Db): Promise<StorageUsage[]> {
  const groups = await db.prisma.document.groupBy({
    by: ["storageBackend"],
    _count: { _all: true },
    _sum: { fileSize: true },
  });
  return (["local", "cloud"] as const).map((backend) => {
    const group = groups.find((g) => g.storageBackend === backend);
    return { backend, documents: group?._count._all ?? 0, bytes: Number(group?._sum.fileSize ?? 0n) };
  });
}

/** The upload endpoint and the limits a browser checks before sending a file. */
export async function uploadPolicy(db: Db): Promise<UploadPolicy> {
  const row = await loadStorageConfig(db);
  return {
    endpoint: "/api/uploads",
    maxFileSize: row ? Number(row.maxFileSize) : DEFAULT_MAX_FILE_SIZE,
    allowedFileTypes: row ? [...row.allowedFileTypes] : [...DEFAULT_ALLOWED_FILE_TYPES],
  };
}

/** Whether "Test connection" may reach loopback and private addresses (CONNECTION_TEST_ALLOW_PRIVATE). */
function testPrivateAllowed(): boolean {
  return privateAddressesAllowed(config().CONNECTION_TEST_ALLOW_PRIVATE);
}

function privateEndpoint(): AppError {
  return new AppError("VALIDATION_FAILED", DOCUMENT_MESSAGES.privateEndpoint, {
    details: { errors: { cloudEndpoint: [DOCUMENT_MESSAGES.privateEndpoint] } },
  });
}

/**
 * "Test connection": writes a probe object (portal-probe/<uuid>) with the given settings, reads it
 * back, compares and deletes it, within about 8 s. An empty secret uses the stored one. The cloud
 * endpoint must be at a public address unless CONNECTION_TEST_ALLOW_PRIVATE (development) allows
 * loopback and private ones; every connection of the test is judged again when it is opened.
 * Failures are answered, not thrown, in a fixed sentence (connection refused, the bucket does not
 * exist...): what the store says is never repeated.
 * @throws AppError VALIDATION_FAILED with the schema's message, when no secret is given or stored,
 * or 'The storage endpoint may not be at a loopback or private address'.
 */
export async function testStorageConnection(props: {
  db: Db;
  input: unknown;
  /** the overall deadline (default 8 s) */
  deadlineMs?: number;
  /**
   * false for the stored settings (the testing tools' health probe): the store uploads already
   * use, at whatever address it was saved; default true (a form's settings)
   */
  addressRule?: boolean;
}): Promise<StorageTestResult> {
  const deadlineMs = props.deadlineMs ?? TEST_DEADLINE_MS;
  const input = parse(storageSettingsSchema, props.input);
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let storage: StoragePort;
  let where: string;
  if (input.storageType === "cloud") {
    const settings = await cloudSettingsFor(props.db, input);
    const guarded = props.addressRule !== false;
    if (guarded) {
      try {
        const lookup = resolveAllowedAddress(new URL(settings.endpoint).hostname, testPrivateAllowed());
        await withTimeout(lookup, deadlineMs, () => new DeadlineError());
      } catch (err) {
        if (err instanceof PrivateAddressError) throw privateEndpoint();
        return { ok: false, message: failureMessage(err, input, deadlineMs), latencyMs: elapsed() };
      }
    }
    storage = createS3Storage(settings, guarded ? { allowPrivate: testPrivateAllowed } : {});
    where = `bucket ${settings.bucket}`;
  } else {
    storage = localDocumentStorage();
    where = "the data directory";
  }
  try {
    await withTimeout(probe(storage), deadlineMs, () => new DeadlineError());
    return {
      ok: true,
      message: `Connected: wrote, read back and deleted a test object in ${where}`,
      latencyMs: elapsed(),
    };
  } catch (err) {
    return { ok: false, message: failureMessage(err, input, deadlineMs), latencyMs: elapsed() };
  }
}

async function cloudSettingsFor(db: Db, input: StorageSettings): Promise<CloudSettings> {
  let secret = input.cloudSecretAccessKey;
  if (!secret) {
    const stored = (await loadStorageConfig(db))?.cloudSecretSealed;
    if (!stored) throw secretRequired();
    secret = unsealSetting(stored);
  }
  // the schema requires these for cloud
  return {
    endpoint: input.cloudEndpoint ?? "",
    region: input.cloudRegion ?? "",
    bucket: input.cloudBucket ?? "",
    forcePathStyle: input.cloudForcePathStyle,
    accessKeyId: input.cloudAccessKeyId ?? "",
    secretAccessKey: secret,
  };
}

class ProbeError extends Error {}
class DeadlineError extends Error {}

async function probe(storage: StoragePort): Promise<void> {
  const key = `portal-probe/${randomUUID()}`;
  const bytes = randomBytes(64);
  await storage.put(key, Readable.from([bytes]), {
    size: bytes.length,
    contentType: "application/octet-stream",
  });
  try {
    const { body } = await storage.get(key);
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(Buffer.from(chunk));
    if (!Buffer.concat(chunks).equals(bytes)) {
      throw new ProbeError("The store gave back different bytes than were written");
    }
  } finally {
    await storage.delete(key);
  }
}

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "the connection was reset",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host not found",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ETIMEDOUT: "no answer in time",
  EPROTO: "TLS handshake failed",
  CERT_HAS_EXPIRED: "its TLS certificate has expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: "its TLS certificate is self-signed",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "its TLS certificate cannot be verified",
};

/** The first network error code in an error, its cause or its aggregated errors. */
function networkCode(err: unknown, depth = 0): string | undefined {
  if (typeof err !== "object" || err === null || depth > 4) return undefined;
  const code = Reflect.get(err, "code");
  if (typeof code === "string" && code in NETWORK_CODES) return code;
  // some layers keep only the text ("AWS SDK error wrapper for Error: connect ECONNREFUSED ...")
  const message = Reflect.get(err, "message");
  const named = typeof message === "string" ? /\b(E[A-Z_]+)\b/.exec(message)?.[1] : undefined;
  if (named && named in NETWORK_CODES) return named;
  const nested = [
    Reflect.get(err, "cause"),
    ...((Reflect.get(err, "errors") as unknown[] | undefined) ?? []),
  ];
  for (const inner of nested) {
    const found = networkCode(inner, depth + 1);
    if (found) return found;
  }
  return undefined;
}

function origin(endpoint: string | undefined): string {
  try {
    return endpoint ? new URL(endpoint).origin : "the store";
  } catch {
    return "the store";
  }
}

/**
 * The store's refusals the portal words itself, by the S3 error code (the code picks a sentence;
 * nothing the store says is repeated).
 */
const S3_REFUSALS: Record<string, string> = {
  NoSuchBucket: "The bucket does not exist",
  InvalidAccessKeyId: "The store does not know this access key",
  SignatureDoesNotMatch: "The store refused the secret key",
  AccessDenied: "The store denied access to the bucket",
  InvalidBucketName: "The bucket name is not valid for this store",
  PermanentRedirect: "The bucket is at another endpoint or in another region",
  AuthorizationHeaderMalformed: "The bucket is in another region",
  IllegalLocationConstraintException: "The bucket is in another region",
  RequestTimeTooSkewed: "The store refused the test: this machine's clock is off",
  ServiceUnavailable: "The store is unavailable; try again later",
  SlowDown: "The store is unavailable; try again later",
};

/** The HTTP status of an error the SDK built from a store's answer. */
function httpStatus(err: unknown): number | undefined {
  if (typeof err !== "object" || err === null) return undefined;
  const metadata = Reflect.get(err, "$metadata");
  const status =
    typeof metadata === "object" && metadata !== null ? Reflect.get(metadata, "httpStatusCode") : undefined;
  return typeof status === "number" ? status : undefined;
}

/** A failure of the probe in a fixed sentence: never a stack, never the secret, never the store's words. */
function failureMessage(err: unknown, input: StorageSettings, deadlineMs: number): string {
  const target = input.storageType === "cloud" ? origin(input.cloudEndpoint) : "local storage";
  if (err instanceof DeadlineError) {
    return `Could not connect to ${target}: no answer within ${deadlineMs / 1000} s`;
  }
  if (err instanceof ProbeError) return err.message;
  if (err instanceof PrivateAddressError || (err instanceof Error && err.name === "PrivateAddressError")) {
    return DOCUMENT_MESSAGES.privateEndpoint;
  }
  const code = networkCode(err);
  if (code) return `Could not connect to ${target}: ${NETWORK_CODES[code]}`;
  const syscallCode = typeof err === "object" && err !== null ? Reflect.get(err, "code") : undefined;
  if (typeof syscallCode === "string" && typeof Reflect.get(err as object, "syscall") === "string") {
    // a file system error: its code, not its message (which names paths)
    return `Could not write to ${target}: ${syscallCode}`;
  }
  if (input.storageType !== "cloud") return `Could not write to ${target}`;
  if (err instanceof Error && (err.name === "TimeoutError" || err.name === "RequestTimeout")) {
    return `Could not connect to ${target}: no answer in time`;
  }
  const name = err instanceof Error ? err.name : undefined;
  if (name && Object.hasOwn(S3_REFUSALS, name)) return S3_REFUSALS[name] as string;
  const status = httpStatus(err);
  if (status !== undefined && status >= 300) return `The store refused the test (HTTP ${status})`;
  return `${target} did not answer as an S3-compatible store`;
}
