import { defineConsumer } from "@services/shared/events/consumer";
import { loadMailContext } from "../mailContext";
import { queueEmail } from "../queueEmail";
import { queueVerificationEmail } from "../queueVerificationEmail";
import { userVariables } from "./emailConsumer";

/** How the team's notification names the type a person registered as (DECISIONS: client → user). */
const REGISTERED_AS: Record<string, string> = {
  user: "client (access requested)",
  prospect: "prospect",
  client: "client",
};

/**
 * user.registered → the verification email to the new user (its link carries the unsealed token)
 * and the new-registration notice to the team's address.
 */
export const registrationEmails = defineConsumer({
  name: "email_registration",
  events: ["user.registered"],
  async handle(envelope, tx) {
    const user = envelope.payload;
    const context = await loadMailContext(tx, ["email_verification", "team_new_registration"]);
    await queueVerificationEmail({
      tx,
      eventId: envelope.id,
      occurredAt: envelope.occurredAt,
      context,
      user,
    });
    await queueEmail({
      tx,
      eventId: envelope.id,
      templateKey: "team_new_registration",
      to: context.teamAddress,
      context,
      variables: {
        ...userVariables(user),
        userType: REGISTERED_AS[user.userType] ?? user.userType,
        companyName: user.companyName ?? "—",
        notes: user.registrationNotes ?? "—",
        link: `${context.publicUrl}/admin/user-management`,
      },
    });
  },
});
