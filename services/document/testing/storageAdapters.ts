import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { startS3rver } from "@services/shared/testing/s3rver";
import { createLocalStorage } from "../storage/local";
import type { StoragePort } from "../storage/port";
import { createS3Storage } from "../storage/s3";

/** One storage adapter made for a test suite, and how to be rid of it. */
export interface AdapterUnderTest {
  storage: StoragePort;
  close(): Promise<void>;
  /** S3 only: the same store, signing download URLs for `seconds` */
  withUrlSeconds?: (seconds: number) => StoragePort;
}

/**
 * Every storage adapter by name, each made when a suite asks (for `describe.each`): local storage in
 * a temporary directory of its own, and S3 on an s3rver of its own (on a free port).
 */
export const STORAGE_ADAPTERS: [string, () => Promise<AdapterUnderTest>][] = [
  [
    "local",
    async () => {
      const root = await mkdtemp(path.join(os.tmpdir(), "storage-local-"));
      return { storage: createLocalStorage(root), close: () => rm(root, { recursive: true, force: true }) };
    },
  ],
  [
    "s3",
    async () => {
      const server = await startS3rver();
      return {
        storage: createS3Storage(server.settings),
        withUrlSeconds: (seconds) => createS3Storage(server.settings, { urlExpiresInSeconds: seconds }),
        close: () => server.stop(),
      };
    },
  ],
];
