import { Button, ButtonVariant, Classes, FormGroup, H3, Intent, TextArea } from "@blueprintjs/core";
import { Eraser, SendMessage } from "@blueprintjs/icons";
import { NOTES_TOO_LONG_MESSAGE } from "@schema/validation/user";
import { useSaveNotes } from "@web/data/rest";
import { showToast } from "@web/lib/toast";
import { type FormEvent, useId, useState } from "react";
import { NOTES_TEXT, notesFailureMessage, notesSubmitDisabled, notesTooLong, wordCountLabel } from "./notes";

/** Props of the console's Notes tab. */
export interface NotesTabProps {
  /** the notes saved before, shown to start with */
  initialNotes: string | null;
  /** the preview's demo user: nothing is sent to the server */
  preview: boolean;
  /** told the saved text after the server accepted it */
  onSaved?: (notes: string) => void;
}

/**
 * The Notes tab (spec §2, §5, §8): notes for the team with a live word count out of 250, Clear and
 * Submit Notes (disabled while empty); the server saves them through POST /api/user/notes.
 */
export function NotesTab({ initialNotes, preview, onSaved }: NotesTabProps) {
  const [notes, setNotes] = useState(initialNotes ?? "");
  const [saving, setSaving] = useState(false);
  const saveNotes = useSaveNotes();
  const inputId = useId();
  const countId = useId();
  const tooLong = notesTooLong(notes);

  const handleClear = () => setNotes("");

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (notesSubmitDisabled(notes) || saving) return;
    if (tooLong) {
      showToast({
        title: NOTES_TEXT.tooLongTitle,
        description: NOTES_TOO_LONG_MESSAGE,
        intent: "destructive",
      });
      return;
    }
    if (preview) {
      showToast({
        title: "Preview only",
        description: "Notes are not sent from the preview. Sign in to leave notes for our team.",
        intent: Intent.PRIMARY,
      });
      return;
    }
    setSaving(true);
    try {
      // spec §7: the answer is read as JSON; the cached user then carries the notes everywhere
      await saveNotes(notes);
      showToast({
        title: NOTES_TEXT.updatedTitle,
        description: NOTES_TEXT.updatedDescription,
        intent: Intent.SUCCESS,
      });
      onSaved?.(notes);
    } catch (error) {
      showToast({
        title: NOTES_TEXT.failedTitle,
        description: notesFailureMessage(error),
        intent: "destructive",
      });
    } finally {
      setSaving(false);
    }
  };

  return (
    <form className="console-notes" onSubmit={handleSubmit} noValidate>
      <H3>Notes for our team</H3>
      <FormGroup
        label="Your notes"
        labelFor={inputId}
        helperText={
          <span id={countId} className={tooLong ? Classes.INTENT_DANGER : undefined} aria-live="polite">
            {wordCountLabel(notes)}
          </span>
        }
        intent={tooLong ? Intent.DANGER : Intent.NONE}
      >
        <TextArea
          id={inputId}
          value={notes}
          onChange={(event) => setNotes(event.target.value)}
          fill
          autoResize
          rows={8}
          intent={tooLong ? Intent.DANGER : Intent.NONE}
          aria-describedby={countId}
          placeholder="Questions, updates or anything our team should know"
        />
      </FormGroup>
      <div className="portal-actions">
        <Button
          type="button"
          variant={ButtonVariant.OUTLINED}
          icon={<Eraser />}
          text="Clear"
          onClick={handleClear}
          disabled={notes === "" || saving}
        />
        <Button
          type="submit"
          intent={Intent.PRIMARY}
          icon={<SendMessage />}
          text="Submit Notes"
          loading={saving}
          disabled={notesSubmitDisabled(notes)}
        />
      </div>
    </form>
  );
}
