import type { Readable } from "node:stream";
import type { DownloadTarget, StoragePort, StoredObjectInfo } from "./port";

// The cloud adapter: any S3-compatible store (AWS, MinIO, Ceph, s3rver in tests). Uploads are
// streamed in 8 MiB parts, two at a time, so memory stays bounded whatever the file's size; a
// download is a presigned GET valid at most 60 s that names the file and its type.

/** Where the cloud store is and how to sign in to it (storage_config's cloud fields, secret opened). */
export interface CloudSettings {
  endpoint: string;
  region: string;
  bucket: string;
  forcePathStyle: boolean;
  accessKeyId: string;
  secretAccessKey: string;
}

export interface S3StorageOptions {
  /** lifetime of a presigned download URL in seconds; at most (and by default) 60 */
  urlExpiresInSeconds?: number;
  /**
   * connections go only to public addresses unless this answers true at the time of the lookup
   * (services/shared/addressSafety.ts; a literal address in the endpoint is not looked up: the
   * caller judges it). Unset: any address (the stored settings).
   */
  allowPrivate?: () => boolean;
}

/** The adapter module with the AWS SDK: about a second to load, so loaded once a cloud store is used. */
let adapter: Promise<typeof import("./s3Adapter.js")> | undefined;

/**
 * The storage port over an S3-compatible store (./s3Adapter.ts), its SDK loaded at the first call,
 * not when the service starts: most processes (and every test that stores locally) never need it.
 * Clients are shared between adapters made with the same settings.
 */
export function createS3Storage(settings: CloudSettings, options: S3StorageOptions = {}): StoragePort {
  let port: Promise<StoragePort> | undefined;
  const ready = (): Promise<StoragePort> => {
    adapter ??= import("./s3Adapter.js");
    port ??= adapter.then((loaded) => loaded.s3Storage(settings, options));
    return port;
  };
  return {
    backend: "cloud",
    async put(key: string, body: Readable, props: { size?: number; contentType: string }) {
      return (await ready()).put(key, body, props);
    },
    async putFile(key: string, filePath: string, props: { size: number; contentType: string }) {
      return (await ready()).putFile(key, filePath, props);
    },
    async get(key: string) {
      return (await ready()).get(key);
    },
    async download(key: string, props: { fileName: string; contentType: string }): Promise<DownloadTarget> {
      return (await ready()).download(key, props);
    },
    async delete(key: string) {
      return (await ready()).delete(key);
    },
    async *list(prefix: string): AsyncGenerator<StoredObjectInfo> {
      yield* (await ready()).list(prefix);
    },
  };
}
