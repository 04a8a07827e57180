import { AUTH_LINKS } from "@schema/api/user";
import { defineConsumer } from "@services/shared/events/consumer";
import { unseal } from "@services/shared/sealed";
import { loadMailContext } from "../mailContext";
import { queueEmail } from "../queueEmail";

/**
 * user.invited → the invitation to the new user: their username and the set-password link (the
 * unsealed token; single use, 72 hours), which also confirms the address.
 */
export const invitationEmail = defineConsumer({
  name: "email_invitation",
  events: ["user.invited"],
  async handle(envelope, tx) {
    const user = envelope.payload;
    const context = await loadMailContext(tx, ["user_invitation"]);
    const validMs = Date.parse(user.tokenExpiresAt) - Date.parse(envelope.occurredAt);
    await queueEmail({
      tx,
      eventId: envelope.id,
      templateKey: "user_invitation",
      to: user.email,
      context,
      variables: {
        firstName: user.firstName,
        lastName: user.lastName,
        username: user.username,
        invitedBy: user.invitedBy,
        link: AUTH_LINKS.setPassword(context.publicUrl, unseal(user.sealedToken)),
        expiresInHours: Math.max(1, Math.round(validMs / 3_600_000)),
      },
    });
  },
});
