import { defineConsumer } from "@services/shared/events/consumer";

/**
 * Keeps users.esrtSynced equal to the Pro-app sync service's view (esrt.user_sync_changed): a user
 * is synced when the Pro app has acknowledged their latest version. A report is applied only when
 * its seq is higher than the last one applied, so a late or repeated report changes nothing.
 */
export const esrtSyncStateConsumer = defineConsumer({
  name: "user_esrt_sync_state",
  events: ["esrt.user_sync_changed"],
  // order does not matter: a report applies only when its seq is newer; the events waiting are applied
  // together, up to 32 in one transaction
  batch: 32,
  async handle(envelope, tx) {
    const { userId, synced, seq } = envelope.payload;
    await tx.$executeRaw`
      UPDATE users SET "esrtSynced" = ${synced}, "esrtSyncSeq" = ${seq}
      WHERE id = ${userId} AND "esrtSyncSeq" < ${seq}`;
  },
});
