import { defineEmailConsumer } from "./emailConsumer";

/** The business time zone (DECISIONS.md, Appointments): times in emails are Pacific time. */
const changedAtFormat = new Intl.DateTimeFormat("en-US", {
  timeZone: "America/Los_Angeles",
  year: "numeric",
  month: "long",
  day: "numeric",
  hour: "numeric",
  minute: "2-digit",
  timeZoneName: "short",
});

/** user.password_changed → a short security notice to the account's address. */
export const passwordChangedEmail = defineEmailConsumer({
  name: "email_password_changed",
  events: ["user.password_changed"],
  templateKey: "password_changed",
  to: ({ payload }) => payload.email,
  variables: ({ payload: user, occurredAt }, context) => ({
    firstName: user.firstName,
    changedAt: changedAtFormat.format(new Date(occurredAt)),
    link: `${context.publicUrl}/auth`,
  }),
});
