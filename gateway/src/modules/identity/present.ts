/** The answer to a saved console note, on both surfaces (spec §5). */
export function notesSaved(saved: { notes: string; wordCount: number }): {
  notes: string;
  wordCount: number;
  message: string;
} {
  return { ...saved, message: "Notes saved" };
}
