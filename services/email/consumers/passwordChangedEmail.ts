import { defineConsumer } from "@services/shared/events/consumer";
import { loadMailContext } from "../mailContext";
import { queueEmail } from "../queueEmail";

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
export const passwordChangedEmail = defineConsumer({
  name: "email_password_changed",
  events: ["user.password_changed"],
  async handle(envelope, tx) {
    const user = envelope.payload;
    const context = await loadMailContext(tx, ["password_changed"]);
    await queueEmail({
      tx,
      eventId: envelope.id,
      templateKey: "password_changed",
      to: user.email,
      context,
      variables: {
        firstName: user.firstName,
        changedAt: changedAtFormat.format(new Date(envelope.occurredAt)),
        link: `${context.publicUrl}/auth`,
      },
    });
  },
});
