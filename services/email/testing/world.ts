import { seed } from "../../../prisma/seed";
import { config, setConfig } from "../../shared/config";
import type { Db } from "../../shared/db";
import { eventsDatabase } from "../../shared/events/testing/world";

/** The team address the email tests configure in email_settings. */
export const TEST_TEAM_ADDRESS = "team@firm.test";
/** The public address links in the test emails start with. */
export const TEST_PUBLIC_URL = "https://portal.test";

/**
 * A seeded database of the test file's own (a sender claims every queued message, so email tests
 * must not share the run's database), with the team address set in email_settings and a
 * configuration without TEAM_EMAIL or MAIL_FROM. `drop()` restores the configuration.
 */
export async function emailDatabase(): Promise<{ db: Db; drop(): Promise<void> }> {
  const original = config();
  setConfig({ ...original, TEAM_EMAIL: undefined, MAIL_FROM: undefined, PUBLIC_URL: TEST_PUBLIC_URL });
  const world = await eventsDatabase();
  await seed(world.db, config());
  await world.db.prisma.emailSettings.update({
    where: { id: 1 },
    data: { teamAddress: TEST_TEAM_ADDRESS, fromName: "Portal Tests", fromAddress: "no-reply@firm.test" },
  });
  return {
    db: world.db,
    async drop() {
      setConfig(original);
      await world.drop();
    },
  };
}
