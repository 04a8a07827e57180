import { defineConsumer } from "@services/shared/events/consumer";
import { loadMailContext } from "../mailContext";
import { queueEmail } from "../queueEmail";

/**
 * user.email_verified → the welcome email. The event's optional names fill the greeting; without
 * them the greeting is neutral and the email address stands for the username.
 */
export const welcomeEmail = defineConsumer({
  name: "email_welcome",
  events: ["user.email_verified"],
  async handle(envelope, tx) {
    const user = envelope.payload;
    const context = await loadMailContext(tx, ["welcome"]);
    await queueEmail({
      tx,
      eventId: envelope.id,
      templateKey: "welcome",
      to: user.email,
      context,
      variables: {
        firstName: user.firstName || "there",
        lastName: user.lastName,
        username: user.username ?? user.email,
        link: `${context.publicUrl}/auth`,
      },
    });
  },
});
