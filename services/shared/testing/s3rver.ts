import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { CloudSettings } from "@services/document";
import { freePort } from "../net";

// A real S3-protocol server for tests and benchmarks: s3rver (CommonJS, no type declarations), on a
// free port, silent, storing its objects in a temporary directory of its own.

interface S3rverInstance {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
}

type S3rverConstructor = new (options: {
  port: number;
  address: string;
  silent: boolean;
  directory: string;
  resetOnClose: boolean;
  configureBuckets: { name: string }[];
}) => S3rverInstance;

/** The bucket every started server holds. */
export const S3RVER_BUCKET = "portal-documents";

/** A running s3rver and the settings that reach it. */
export interface RunningS3rver {
  settings: CloudSettings;
  stop(): Promise<void>;
}

/**
 * Starts s3rver on 127.0.0.1 with one bucket and its default credentials (S3RVER/S3RVER), on a free
 * port in a temporary directory unless `port` and `directory` are given (`make s3`). `stop()` closes
 * it and removes a temporary directory.
 * @throws when the server cannot start.
 */
export async function startS3rver(
  options: { port?: number; directory?: string } = {},
): Promise<RunningS3rver> {
  const S3rver = require("s3rver") as S3rverConstructor;
  const temporary = options.directory === undefined;
  const directory = options.directory ?? (await mkdtemp(path.join(os.tmpdir(), "s3rver-")));
  const port = options.port ?? (await freePort());
  const server = new S3rver({
    port,
    address: "127.0.0.1",
    silent: true,
    directory,
    resetOnClose: false,
    configureBuckets: [{ name: S3RVER_BUCKET }],
  });
  await server.run();
  let stopped = false;
  return {
    settings: {
      endpoint: `http://127.0.0.1:${port}`,
      region: "us-east-1",
      bucket: S3RVER_BUCKET,
      forcePathStyle: true,
      accessKeyId: "S3RVER",
      secretAccessKey: "S3RVER",
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.close();
      if (temporary) await rm(directory, { recursive: true, force: true });
    },
  };
}
