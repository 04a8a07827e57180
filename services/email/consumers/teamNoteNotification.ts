import { defineConsumer } from "@services/shared/events/consumer";
import { loadMailContext } from "../mailContext";
import { queueEmail } from "../queueEmail";

/** user.notes_updated → the note, as the user wrote it, to the team's address. */
export const teamNoteNotification = defineConsumer({
  name: "email_team_notes",
  events: ["user.notes_updated"],
  async handle(envelope, tx) {
    const user = envelope.payload;
    const context = await loadMailContext(tx, ["team_note_notification"]);
    await queueEmail({
      tx,
      eventId: envelope.id,
      templateKey: "team_note_notification",
      to: context.teamAddress,
      context,
      variables: {
        firstName: user.firstName,
        lastName: user.lastName,
        userName: `${user.firstName} ${user.lastName}`.trim(),
        userEmail: user.email,
        companyName: user.companyName ?? "—",
        notes: user.notes,
        link: `${context.publicUrl}/admin/user-management`,
      },
    });
  },
});
