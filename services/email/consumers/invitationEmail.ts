import { AUTH_LINKS } from "@schema/api/user";
import { unseal } from "@services/shared/sealed";
import { defineEmailConsumer } from "./emailConsumer";

/**
 * user.invited → the invitation to the new user: their username and the set-password link (the
 * unsealed token; single use, 72 hours), which also confirms the address.
 */
export const invitationEmail = defineEmailConsumer({
  name: "email_invitation",
  events: ["user.invited"],
  templateKey: "user_invitation",
  to: ({ payload }) => payload.email,
  variables({ payload: user, occurredAt }, context) {
    const validMs = Date.parse(user.tokenExpiresAt) - Date.parse(occurredAt);
    return {
      firstName: user.firstName,
      lastName: user.lastName,
      username: user.username,
      invitedBy: user.invitedBy,
      link: AUTH_LINKS.setPassword(context.publicUrl, unseal(user.sealedToken)),
      expiresInHours: Math.max(1, Math.round(validMs / 3_600_000)),
    };
  },
  oneTimeToken: ({ payload }) => unseal(payload.sealedToken),
});
