import { AUTH_LINKS } from "@schema/api/user";
import { defineConsumer } from "@services/shared/events/consumer";
import { unseal } from "@services/shared/sealed";
import { loadMailContext } from "../mailContext";
import { queueEmail } from "../queueEmail";

/** user.password_reset_requested → the reset email, whose link carries the unsealed token. */
export const passwordResetEmail = defineConsumer({
  name: "email_password_reset",
  events: ["user.password_reset_requested"],
  async handle(envelope, tx) {
    const user = envelope.payload;
    const context = await loadMailContext(tx, ["password_reset"]);
    const validMs = Date.parse(user.tokenExpiresAt) - Date.parse(envelope.occurredAt);
    await queueEmail({
      tx,
      eventId: envelope.id,
      templateKey: "password_reset",
      to: user.email,
      context,
      variables: {
        firstName: user.firstName,
        link: AUTH_LINKS.resetPassword(context.publicUrl, unseal(user.sealedToken)),
        expiresInMinutes: Math.max(1, Math.round(validMs / 60_000)),
      },
    });
  },
});
