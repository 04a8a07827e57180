import { defineEmailConsumer } from "./emailConsumer";

/**
 * user.email_verified → the welcome email. The event's optional names fill the greeting; without
 * them the greeting is neutral and the email address stands for the username.
 */
export const welcomeEmail = defineEmailConsumer({
  name: "email_welcome",
  events: ["user.email_verified"],
  templateKey: "welcome",
  to: ({ payload }) => payload.email,
  variables: ({ payload: user }, context) => ({
    firstName: user.firstName || "there",
    lastName: user.lastName,
    username: user.username ?? user.email,
    link: `${context.publicUrl}/auth`,
  }),
});
