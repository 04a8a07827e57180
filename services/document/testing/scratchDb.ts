import { migrateDatabase } from "@db/migrate";
import { connectPostgres, type Db } from "@services/shared/db";
import { scratchDatabase } from "@services/shared/testing/db";

/**
 * A migrated database of the test's own, for tests that change storage_config (a setting every
 * upload reads): the run's shared database stays as other test files expect it. `drop()` closes
 * and removes it.
 * @throws when the test server refuses to create or migrate the database.
 */
export async function isolatedDb(): Promise<{ db: Db; drop(): Promise<void> }> {
  const scratch = await scratchDatabase();
  await migrateDatabase({ url: scratch.url });
  const db = await connectPostgres(scratch.url);
  return {
    db,
    async drop() {
      await db.close();
      await scratch.drop();
    },
  };
}
