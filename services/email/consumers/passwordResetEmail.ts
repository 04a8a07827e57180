import { AUTH_LINKS } from "@schema/api/user";
import { unseal } from "@services/shared/sealed";
import { defineEmailConsumer } from "./emailConsumer";

/** user.password_reset_requested → the reset email, whose link carries the unsealed token. */
export const passwordResetEmail = defineEmailConsumer({
  name: "email_password_reset",
  events: ["user.password_reset_requested"],
  templateKey: "password_reset",
  to: ({ payload }) => payload.email,
  variables({ payload: user, occurredAt }, context) {
    const validMs = Date.parse(user.tokenExpiresAt) - Date.parse(occurredAt);
    return {
      firstName: user.firstName,
      link: AUTH_LINKS.resetPassword(context.publicUrl, unseal(user.sealedToken)),
      expiresInMinutes: Math.max(1, Math.round(validMs / 60_000)),
    };
  },
  oneTimeToken: ({ payload }) => unseal(payload.sealedToken),
});
