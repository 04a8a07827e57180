import "./aliases";
import { cleanupTestRun } from "../testServices";

/** Drops what globalSetup made for this run: the database, the Redis keys and the streams. */
export default async function globalTeardown(): Promise<void> {
  // the run's shared Chromium (globalSetup), when it started one
  const holder = globalThis as {
    __portalTestBrowser?: { close(): Promise<void> };
    __portalInitdb?: { exitCode: number | null; kill(): boolean };
  };
  // the embedded database's initdb, if the run ended before it did
  if (holder.__portalInitdb?.exitCode === null) holder.__portalInitdb.kill();
  await holder.__portalTestBrowser?.close().catch(() => undefined);
  holder.__portalTestBrowser = undefined;
  await cleanupTestRun();
}
