import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { pipeline, Readable, Transform } from "node:stream";
import { pipeline as pipelineAsync } from "node:stream/promises";
import { DataStore, ERRORS, Upload } from "@tus/utils";
import type { Inspection } from "./inspectingStore";
import { TextCheck } from "./sniff";
import type { StoragePort } from "./storage/port";

// Uploads in progress staged on a storage port (issue 22): with cloud storage configured, every
// gateway writes an upload's bytes to the shared store, so a PATCH that reaches another gateway
// continues the same upload. Each PATCH's bytes become one object, `uploads/<id>/<offset>` (the
// offset in 16 digits), beside `uploads/<id>/info` (the declared length and metadata); the upload's
// offset is the end of the chain of chunks that starts at 0 and follows on without a gap. Nothing
// is buffered to S3's 5 MiB part minimum and no multipart upload is left open: a chunk is whole or
// absent. Two PATCHes at one offset on two gateways (a client retrying while its first attempt
// still runs) write the same key, and whichever object remains starts a chain that holds only bytes
// the client sent at that offset: the next PATCH at any other offset is refused (409) as tus asks.
// Keys live under `uploads/`, apart from the documents' `documents/` (the orphan sweep's prefix).

/** The prefix of the staged uploads in a store. */
export const CLOUD_STAGING_PREFIX = "uploads/";

const INFO = "info";

/** The folder of upload `id`'s objects. */
function folderOf(id: string): string {
  return `${CLOUD_STAGING_PREFIX}${id}/`;
}

function chunkKey(id: string, offset: number): string {
  return `${folderOf(id)}${offset.toString().padStart(16, "0")}`;
}

/** The chunks of upload `id` that follow on from 0 without a gap, in order, and where they end. */
async function chainOf(storage: StoragePort, id: string): Promise<{ keys: string[]; end: number }> {
  const sizes = new Map<number, { key: string; size: number }>();
  let info = false;
  for await (const object of storage.list(folderOf(id))) {
    const name = object.key.slice(folderOf(id).length);
    if (name === INFO) info = true;
    else if (/^\d{16}$/.test(name)) sizes.set(Number(name), { key: object.key, size: object.size });
  }
  if (!info) throw ERRORS.FILE_NOT_FOUND;
  const keys: string[] = [];
  let end = 0;
  for (let chunk = sizes.get(0); chunk && chunk.size > 0; chunk = sizes.get(end)) {
    keys.push(chunk.key);
    end += chunk.size;
  }
  return { keys, end };
}

async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * The tus data store over a storage port: uploads in progress as objects of that store (the cloud
 * adapter in production; any adapter works, which the tests use). It keeps no state of its own, so
 * any number of processes may serve one upload.
 */
export class PortStagingStore extends DataStore {
  constructor(
    private readonly storage: StoragePort,
    private readonly expirationMs: number,
  ) {
    super();
    this.extensions = ["creation", "creation-with-upload", "termination", "expiration"];
  }

  override async create(upload: Upload): Promise<Upload> {
    upload.creation_date ??= new Date().toISOString();
    const info = JSON.stringify({
      size: upload.size,
      metadata: upload.metadata,
      creation_date: upload.creation_date,
    });
    await this.storage.put(folderOf(upload.id) + INFO, bufferStream(Buffer.from(info)), {
      size: Buffer.byteLength(info),
      contentType: "application/json",
    });
    return upload;
  }

  override async getUpload(id: string): Promise<Upload> {
    const { end } = await chainOf(this.storage, id);
    let info: { size?: number; metadata?: Record<string, string | null>; creation_date?: string };
    try {
      info = JSON.parse((await readAll((await this.storage.get(folderOf(id) + INFO)).body)).toString());
    } catch {
      throw ERRORS.FILE_NOT_FOUND;
    }
    return new Upload({
      id,
      size: info.size,
      offset: end,
      metadata: info.metadata,
      creation_date: info.creation_date,
    });
  }

  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    let seen = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        seen += chunk.length;
        callback(null, chunk);
      },
    });
    // errors of the request stream reach the counter (and so the store's put)
    const counted = pipeline(readable, counter, () => undefined);
    await this.storage.put(chunkKey(id, offset), counted, {
      contentType: "application/octet-stream",
    });
    // an empty PATCH leaves an empty object, which the chain ignores
    return offset + seen;
  }

  override async remove(id: string): Promise<void> {
    await removeStagedObjects(this.storage, id);
  }

  override getExpiration(): number {
    return this.expirationMs;
  }
}

function bufferStream(bytes: Buffer): Readable {
  return Readable.from([bytes]);
}

/** Deletes every object of upload `id` in `storage` (missing ones are no error). */
export async function removeStagedObjects(storage: StoragePort, id: string): Promise<void> {
  const keys: string[] = [];
  for await (const object of storage.list(folderOf(id))) keys.push(object.key);
  await Promise.all(keys.map((key) => storage.delete(key)));
}

/**
 * Copies the staged bytes of upload `id` from `storage` into the local file `target` (the finishing
 * gateway's scratch copy, which the sniff and the document store read), computing on the way what
 * an inspection learns, so no byte is read twice.
 * @throws when a chunk cannot be read or the file written.
 */
export async function fetchStagedUpload(
  storage: StoragePort,
  id: string,
  target: string,
): Promise<Inspection & { size: number }> {
  const { keys, end } = await chainOf(storage, id);
  const hash = createHash("sha256");
  const text = new TextCheck();
  await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
  const file = createWriteStream(target, { mode: 0o600 });
  async function* chunks(): AsyncGenerator<Buffer> {
    for (const key of keys) {
      const { body } = await storage.get(key);
      for await (const chunk of body) {
        const bytes = chunk as Buffer;
        hash.update(bytes);
        text.update(bytes);
        yield bytes;
      }
    }
  }
  await pipelineAsync(chunks(), file);
  return { sha256: hash.digest("hex"), textVerdict: text.finish(), size: end };
}

/** Staged uploads in `storage`: each id with the newest modification of its objects. */
export async function stagedUploadsIn(storage: StoragePort): Promise<Map<string, number>> {
  const newest = new Map<string, number>();
  for await (const object of storage.list(CLOUD_STAGING_PREFIX)) {
    const id = object.key.slice(CLOUD_STAGING_PREFIX.length).split("/")[0] ?? "";
    newest.set(id, Math.max(newest.get(id) ?? 0, object.lastModified.getTime()));
  }
  return newest;
}
