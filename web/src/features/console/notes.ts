import { countWords, NOTES_MAX_WORDS } from "@schema/validation/user";

/** Toast texts of the Notes tab (spec §5, §8). */
export const NOTES_TEXT = {
  tooLongTitle: "Notes Too Long",
  updatedTitle: "Notes Updated",
  updatedDescription: "Your notes have been saved successfully.",
  failedTitle: "Update Failed",
  failedFallback: "Failed to update notes",
} as const;

/** The live counter under the notes, '{n} / 250 words'. */
export function wordCountLabel(text: string): string {
  return `${countWords(text)} / ${NOTES_MAX_WORDS} words`;
}

/** Whether the notes are over the 250-word limit. */
export function notesTooLong(text: string): boolean {
  return countWords(text) > NOTES_MAX_WORDS;
}

/** Whether Submit Notes is disabled: nothing but white space written. */
export function notesSubmitDisabled(text: string): boolean {
  return text.trim() === "";
}

/**
 * The description of the 'Update Failed' toast: the server's `error` field when the failure carries
 * one (apiRequest's "<status>: <body>" message), else 'Failed to update notes'.
 */
export function notesFailureMessage(error: unknown): string {
  if (!(error instanceof Error)) return NOTES_TEXT.failedFallback;
  const body = error.message.replace(/^\d{3}: /, "");
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === "object" && "error" in parsed) {
      const reason = (parsed as { error: unknown }).error;
      if (typeof reason === "string" && reason.trim() !== "") return reason;
    }
  } catch {
    // Not JSON (a proxy's HTML page, a network failure): the fallback says it.
  }
  return NOTES_TEXT.failedFallback;
}
