import { NOTES_TOO_LONG_MESSAGE } from "@schema/validation/user";
import { testDb } from "@services/shared/testing/db";
import { createUser } from "@services/shared/testing/factories";
import { updateNotes } from "./updateNotes";

// The note follows the web form's one rule (notesSchema): 250 words, 20,000 characters.

describe("updateNotes", () => {
  it("refuses over 250 words with the schema's message", async () => {
    const db = await testDb();
    const user = await createUser(db);
    await expect(
      updateNotes({ db, userId: user.id, notes: Array.from({ length: 251 }, () => "word").join(" ") }),
    ).rejects.toMatchObject({ code: "NOT_ALLOWED", message: NOTES_TOO_LONG_MESSAGE });
  });

  it("accepts a note of long words the form accepts (over 5,000 characters, under 250 words)", async () => {
    const db = await testDb();
    const user = await createUser(db);
    const notes = Array.from({ length: 200 }, (_, i) => `receivable-${i}-${"x".repeat(20)}`).join(" ");
    expect(notes.length).toBeGreaterThan(5000);
    const saved = await updateNotes({ db, userId: user.id, notes });
    expect(saved).toEqual({ notes, wordCount: 200 });
    const row = await db.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.notes).toBe(notes);
  });
});
