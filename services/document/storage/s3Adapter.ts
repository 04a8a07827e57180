import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { unlink } from "node:fs/promises";
import http from "node:http";
import https from "node:https";
import type { Readable } from "node:stream";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  NotFound,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { guardedLookup } from "@services/shared/addressSafety";
import { create as contentDisposition } from "content-disposition";
import {
  type DownloadTarget,
  type StorageBackendName,
  StorageNotFoundError,
  type StoragePort,
  type StoredObjectInfo,
} from "./port";
import type { CloudSettings, S3StorageOptions } from "./s3";

// The cloud adapter over the AWS SDK, loaded by ./s3.ts when a cloud store is first used.

const PART_SIZE = 8 * 1024 * 1024;
const QUEUE_SIZE = 2;
const MAX_URL_SECONDS = 60;
const CONNECTION_TIMEOUT_MS = 3000;
const SOCKET_IDLE_TIMEOUT_MS = 30_000;
const MAX_CACHED_CLIENTS = 8;

const clients = new Map<string, S3Client>();

function fingerprint(settings: CloudSettings, guarded: boolean): string {
  const { endpoint, region, forcePathStyle, accessKeyId, secretAccessKey } = settings;
  return createHash("sha256")
    .update(JSON.stringify([endpoint, region, forcePathStyle, accessKeyId, secretAccessKey, guarded]))
    .digest("hex");
}

/** The agents of a client whose connections follow the address rule. */
function guardedAgents(allowPrivate: () => boolean) {
  const lookup = guardedLookup(allowPrivate);
  return {
    httpAgent: new http.Agent({ keepAlive: true, lookup }),
    httpsAgent: new https.Agent({ keepAlive: true, lookup }),
  };
}

/**
 * One S3 client per distinct settings (connections are pooled by the client), guarded or not; the
 * oldest is dropped.
 */
function clientFor(settings: CloudSettings, allowPrivate?: () => boolean): S3Client {
  const id = fingerprint(settings, allowPrivate !== undefined);
  const cached = clients.get(id);
  if (cached) return cached;
  // The SDK warns once per process that releases after January 2027 will need Node 22; the lockfile
  // holds today's release, which supports the Node 20.19 this project runs on (docs/DECISIONS.md).
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
  const client = new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    // fail fast: a store that does not answer is reported within seconds, not minutes
    maxAttempts: 2,
    requestHandler: {
      connectionTimeout: CONNECTION_TIMEOUT_MS,
      requestTimeout: SOCKET_IDLE_TIMEOUT_MS,
      ...(allowPrivate ? guardedAgents(allowPrivate) : {}),
    },
    // checksums only where S3 requires them: S3-compatible stores (and s3rver) do not all read the
    // aws-chunked CRC32 trailers newer SDKs send by default
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  clients.set(id, client);
  if (clients.size > MAX_CACHED_CLIENTS) {
    const [oldestId, oldest] = clients.entries().next().value ?? [];
    if (oldestId !== undefined) clients.delete(oldestId);
    oldest?.destroy();
  }
  return client;
}

function isNotFound(err: unknown): boolean {
  if (err instanceof NoSuchKey || err instanceof NotFound) return true;
  return err instanceof S3ServiceException && err.$metadata.httpStatusCode === 404;
}

/**
 * The storage port over an S3-compatible store. Clients are shared between adapters made with the
 * same settings.
 */
export function s3Storage(settings: CloudSettings, options: S3StorageOptions = {}): StoragePort {
  const client = clientFor(settings, options.allowPrivate);
  const Bucket = settings.bucket;
  const expiresIn = Math.min(options.urlExpiresInSeconds ?? MAX_URL_SECONDS, MAX_URL_SECONDS);
  const backend: StorageBackendName = "cloud";

  return {
    backend,

    async put(key, body, props) {
      const upload = new Upload({
        client,
        params: { Bucket, Key: key, Body: body, ContentType: props.contentType },
        partSize: PART_SIZE,
        queueSize: QUEUE_SIZE,
        // a failed multipart upload is aborted: no parts left behind
        leavePartsOnError: false,
      });
      await upload.done();
    },

    async putFile(key, filePath, props) {
      const body = createReadStream(filePath);
      try {
        await this.put(key, body, props);
      } finally {
        body.destroy();
      }
      await unlink(filePath).catch(() => undefined);
    },

    async get(key) {
      try {
        const res = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        if (!res.Body) throw new StorageNotFoundError(key);
        return { body: res.Body as Readable, size: res.ContentLength ?? 0 };
      } catch (err) {
        if (isNotFound(err)) throw new StorageNotFoundError(key);
        throw err;
      }
    },

    async download(key, props): Promise<DownloadTarget> {
      const command = new GetObjectCommand({
        Bucket,
        Key: key,
        ResponseContentDisposition: contentDisposition(props.fileName, { type: "attachment" }),
        ResponseContentType: props.contentType,
      });
      return { kind: "redirect", url: await getSignedUrl(client, command, { expiresIn }) };
    },

    async delete(key) {
      // S3 answers 204 for a key that does not exist
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },

    async *list(prefix): AsyncGenerator<StoredObjectInfo> {
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken }),
        );
        for (const object of page.Contents ?? []) {
          if (!object.Key) continue;
          yield { key: object.Key, size: object.Size ?? 0, lastModified: object.LastModified ?? new Date(0) };
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
  };
}
