import type { TwoFactorChange } from "@schema/events/user";
import { formatChangedAt } from "./changedAt";
import { defineEmailConsumer } from "./emailConsumer";

/** What each change to two-factor sign-in is called in its notice's subject and first line. */
export const TWO_FACTOR_SUMMARIES: Record<TwoFactorChange, string> = {
  authenticator_added: "An authenticator app was set up for your account",
  authenticator_removed: "The authenticator app was removed from your account",
  passkey_added: "A new passkey was added to your account",
  passkey_removed: "A passkey was removed from your account",
  recovery_codes_regenerated: "New recovery codes were made for your account",
  two_factor_turned_off: "Two-factor sign-in was turned off for your account",
  two_factor_reset: "An administrator reset the two-factor sign-in of your account",
};

/** user.two_factor_changed → a security notice to the account's address (issue 20). */
export const twoFactorChangedEmail = defineEmailConsumer({
  name: "email_two_factor_changed",
  events: ["user.two_factor_changed"],
  templateKey: "two_factor_changed",
  to: ({ payload }) => payload.email,
  variables: ({ payload, occurredAt }, context) => ({
    firstName: payload.firstName,
    summary: TWO_FACTOR_SUMMARIES[payload.change],
    detail: payload.passkeyName === undefined ? "" : `The passkey is named "${payload.passkeyName}".`,
    changedAt: formatChangedAt(occurredAt),
    link: `${context.publicUrl}/two-factor`,
  }),
});
