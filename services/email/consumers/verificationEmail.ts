import { defineConsumer } from "@services/shared/events/consumer";
import { loadMailContext } from "../mailContext";
import { queueVerificationEmail } from "../queueVerificationEmail";

/** user.verification_requested → a new verification email (no team notice: nobody registered). */
export const verificationEmail = defineConsumer({
  name: "email_verification_resend",
  events: ["user.verification_requested"],
  async handle(envelope, tx) {
    const context = await loadMailContext(tx, ["email_verification"]);
    await queueVerificationEmail({
      tx,
      eventId: envelope.id,
      occurredAt: envelope.occurredAt,
      context,
      user: envelope.payload,
    });
  },
});
