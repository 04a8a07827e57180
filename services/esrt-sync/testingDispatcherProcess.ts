import { connectPostgres } from "@services/shared/db";
import { startDispatcher } from "./dispatcher";

// A sync dispatcher in a process of its own, for the test that kills one mid-delivery
// (dispatcher.test.ts): it delivers from the database at TEST_SYNC_DB_URL with a short lease and
// prints "ready" once it listens. The test starts it early (its start is slow) and it waits for a
// line on stdin before it connects. Not used by the portal.

/** Resolves at the first line on stdin; a stdin that ends first (the test is gone) ends the process. */
function told(): Promise<void> {
  return new Promise((resolve) => {
    let go = false;
    process.stdin.on("data", (chunk: Buffer) => {
      if (chunk.includes("\n")) {
        go = true;
        resolve();
      }
    });
    process.stdin.on("end", () => {
      if (!go) process.exit(0);
    });
  });
}

async function main(): Promise<void> {
  const url = process.env.TEST_SYNC_DB_URL;
  if (!url) throw new Error("TEST_SYNC_DB_URL is not set");
  await told();
  const db = await connectPostgres(url);
  await startDispatcher({ db, leaseMs: 1000, timeoutMs: 60_000, pollMs: 50, retryScale: 0.0001 });
  process.stdout.write("ready\n");
}

main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(1);
});
