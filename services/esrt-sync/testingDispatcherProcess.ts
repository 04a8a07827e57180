import { connectPostgres } from "@services/shared/db";
import { startDispatcher } from "./dispatcher";

// A sync dispatcher in a process of its own, for the test that kills one mid-delivery
// (dispatcher.test.ts): it delivers from the database at TEST_SYNC_DB_URL with a short lease and
// prints "ready" once it listens. Not used by the portal.

async function main(): Promise<void> {
  const url = process.env.TEST_SYNC_DB_URL;
  if (!url) throw new Error("TEST_SYNC_DB_URL is not set");
  const db = await connectPostgres(url);
  await startDispatcher({ db, leaseMs: 1000, timeoutMs: 60_000, pollMs: 50, retryScale: 0.0001 });
  process.stdout.write("ready\n");
}

main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(1);
});
