import { defineConsumer } from "@services/shared/events/consumer";
import { enqueueUserSync } from "../deliveries";
import { applySnapshot } from "../state";

/**
 * Turns the user events that carry a sync snapshot (registered, invited by an administrator, email verified, updated: profile,
 * type or access level; status changed: deactivated or archived included) into the user's latest
 * sync state and its deliveries. Idempotent twice over: the inbox drops a redelivered event, and a
 * snapshot no newer than the one held changes nothing. Events written before snapshots existed carry
 * none and are passed over.
 */
export const userSnapshotsConsumer = defineConsumer({
  name: "esrt_user_snapshots",
  events: ["user.registered", "user.invited", "user.email_verified", "user.updated", "user.status_changed"],
  // order does not matter: a snapshot applies only when newer than the one held (row-locked); the events waiting are applied
  // together, up to 32 in one transaction
  batch: 32,
  async handle(envelope, tx) {
    const { snapshot, userId } = envelope.payload;
    if (!snapshot) return;
    const state = await applySnapshot(tx, { userId, snapshot });
    if (state) await enqueueUserSync(tx, state);
  },
});
