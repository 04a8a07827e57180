import { defineEmailConsumer, userVariables } from "./emailConsumer";

/** user.notes_updated → the note, as the user wrote it, to the team's address. */
export const teamNoteNotification = defineEmailConsumer({
  name: "email_team_notes",
  events: ["user.notes_updated"],
  templateKey: "team_note_notification",
  to: (_envelope, context) => context.teamAddress,
  variables: ({ payload: user }, context) => ({
    ...userVariables(user),
    companyName: user.companyName ?? "—",
    notes: user.notes,
    link: `${context.publicUrl}/admin/user-management`,
  }),
});
