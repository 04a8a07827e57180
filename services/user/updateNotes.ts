import { countWords, NOTES_TOO_LONG_MESSAGE, notesSchema } from "@schema/validation/user";
import type { Db } from "@services/shared/db";
import { emit } from "@services/shared/events";
import { UserError } from "./errors";
import { eventContact } from "./eventContact";

/**
 * Saves the console note of a user (spec §5: up to 250 words) on the user, keeps it in note_history
 * for the team and emits user.notes_updated (the email service notifies the team).
 * @throws UserError NOT_ALLOWED when notesSchema refuses them (over 250 words or 20,000 characters;
 * details.error), USER_NOT_FOUND.
 */
export async function updateNotes(props: {
  db: Db;
  userId: number;
  notes: string;
}): Promise<{ notes: string; wordCount: number }> {
  // one rule and one message, the web form's (schema/validation/user.ts)
  const parsed = notesSchema.safeParse({ notes: props.notes });
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? NOTES_TOO_LONG_MESSAGE;
    throw new UserError("NOT_ALLOWED", message, { error: message });
  }
  const notes = parsed.data.notes.trim();
  const wordCount = countWords(notes);
  return props.db.prisma.$transaction(async (tx) => {
    const found = await tx.user.findUnique({ where: { id: props.userId }, select: { id: true } });
    if (!found) throw new UserError("USER_NOT_FOUND", "User not found");
    const user = await tx.user.update({ where: { id: props.userId }, data: { notes } });
    const history = await tx.noteHistory.create({ data: { userId: user.id, notes, wordCount } });
    await emit(
      tx,
      {
        type: "user.notes_updated",
        payload: {
          ...eventContact(user),
          username: user.username,
          companyName: user.companyName,
          noteHistoryId: history.id,
          notes,
          wordCount,
        },
      },
      { actor: { kind: "user", userId: user.id } },
    );
    return { notes, wordCount };
  });
}
