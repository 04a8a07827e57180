import { formatChangedAt } from "./changedAt";
import { defineEmailConsumer } from "./emailConsumer";

/** user.password_changed → a short security notice to the account's address. */
export const passwordChangedEmail = defineEmailConsumer({
  name: "email_password_changed",
  events: ["user.password_changed"],
  templateKey: "password_changed",
  to: ({ payload }) => payload.email,
  variables: ({ payload: user, occurredAt }, context) => ({
    firstName: user.firstName,
    changedAt: formatChangedAt(occurredAt),
    link: `${context.publicUrl}/auth`,
  }),
});
