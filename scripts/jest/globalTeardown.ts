import "./aliases";
import { cleanupTestRun } from "../testServices";

/** Drops what globalSetup made for this run: the database, the Redis keys and the streams. */
export default async function globalTeardown(): Promise<void> {
  await cleanupTestRun();
}
