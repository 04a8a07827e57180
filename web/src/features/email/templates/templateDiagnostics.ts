import type { CodeDiagnostic } from "@web/ui/CodeEditor";

// Where a template's problems are, for the editor to mark their lines: the server's problems (the
// preview lists them with line and column while the admin types), a refused save's message, and the
// shared zod schema's messages (a blank or overlong part).

/** A template's three parts, as the admin edits them. */
export type TemplateParts = { subject: string; html: string; text: string };

export type TemplatePartName = keyof TemplateParts;

/** The names the server gives the parts in its messages ("HTML body, line 2: …"). */
export const PART_LABELS: Record<TemplatePartName, string> = {
  subject: "Subject",
  html: "HTML body",
  text: "Text body",
};

/** One problem the server found, where it is (EmailTemplateProblem). */
export interface PartProblem {
  part: TemplatePartName;
  line: number;
  column: number;
  reason: string;
}

const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The length of the `{{…}}` tag at `line`:`column` (1-based) of `text`, if one starts there. */
export function tagLengthAt(text: string, line: number, column: number): number | undefined {
  const rest = (text.split("\n")[line - 1] ?? "").slice(column - 1);
  return /^\{\{.*?\}\}\}?/.exec(rest)?.[0].length;
}

/** The line and column (1-based) of the first tag of `text` that names `variable`. */
export function findTag(text: string, variable: string): { line: number; column: number } | undefined {
  const tag = new RegExp(`\\{\\{\\{?\\s*[#^/&]?\\s*${escapeRegExp(variable)}\\s*\\}`);
  const lines = text.split("\n");
  for (const [index, lineText] of lines.entries()) {
    const match = tag.exec(lineText);
    if (match) return { line: index + 1, column: match.index + 1 };
  }
  return undefined;
}

/**
 * The part and place a refused save's message names: "HTML body, line 2: Unknown variable "secret""
 * names its line; a message that names a variable without one is placed at the first tag using it.
 * Null when the message names neither.
 */
export function locateSaveProblem(message: string, parts: TemplateParts): PartProblem | null {
  for (const part of Object.keys(PART_LABELS) as TemplatePartName[]) {
    const match = new RegExp(`^${escapeRegExp(PART_LABELS[part])}, line (\\d+): (.+)$`, "s").exec(message);
    if (match?.[1] && match[2]) {
      const line = Number(match[1]);
      const lineText = parts[part].split("\n")[line - 1] ?? "";
      const named = /"([^"]+)"/.exec(match[2])?.[1];
      const at = named ? findTag(lineText, named) : undefined;
      return { part, line, column: at?.column ?? 1, reason: match[2] };
    }
  }
  const named = /"([\w.]+)"/.exec(message)?.[1];
  if (named) {
    for (const part of ["html", "text", "subject"] as const) {
      const at = findTag(parts[part], named);
      if (at) return { part, ...at, reason: message };
    }
  }
  return null;
}

/** Props of {@link partDiagnostics}. */
export interface PartDiagnosticsProps {
  part: TemplatePartName;
  /** the part's text the problems were found in */
  text: string;
  /** the shared schema's message for the part (blank, too long) */
  schemaError?: string;
  /** the server's problems, of every part */
  problems: readonly PartProblem[];
  /** where a refused save's message points, if anywhere */
  saveProblem?: PartProblem | null;
}

/**
 * The editor's diagnostics for one part: a schema message on the first line of a blank part (on the
 * last of an overlong one), each server problem on its line, the tag it points at underlined, and a
 * refused save's problem when the preview has not listed it already.
 */
export function partDiagnostics({
  part,
  text,
  schemaError,
  problems,
  saveProblem,
}: PartDiagnosticsProps): CodeDiagnostic[] {
  const diagnostics: CodeDiagnostic[] = [];
  if (schemaError) {
    diagnostics.push(
      text.trim() === ""
        ? { line: 1, message: schemaError }
        : { line: text.split("\n").length, message: schemaError },
    );
  }
  const own = problems.filter((p) => p.part === part);
  const listed = saveProblem?.part === part && own.some((p) => p.line === saveProblem.line);
  for (const p of saveProblem && saveProblem.part === part && !listed ? [...own, saveProblem] : own) {
    diagnostics.push({
      line: p.line,
      column: p.column,
      length: tagLengthAt(text, p.line, p.column),
      message: p.reason,
    });
  }
  return diagnostics;
}
