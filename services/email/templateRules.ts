import { Writer } from "mustache";
import type { EmailTemplateParts } from "./renderEmail";

// What an admin-edited template may contain (issue 12, docs/DECISIONS.md "Email templates and the
// delivery log"): logic-less Mustache limited to the template's own variables. Allowed: {{name}}
// (escaped in the HTML part), sections {{#name}}...{{/name}} and inverted sections
// {{^name}}...{{/name}} on a variable (shown when it is set, or when it is empty), comments {{! }}.
// Refused: a variable the template is not offered, partials {{> }}, unescaped output {{{ }}} and
// {{& }}, and delimiter changes {{= =}}.

/** The part of a template a problem is in. */
export type TemplatePart = keyof EmailTemplateParts;

/** One reason a template is refused, where it is. */
export interface TemplateProblem {
  part: TemplatePart;
  /** 1-based line and column in the part */
  line: number;
  column: number;
  reason: string;
  /** "HTML body, line 3: Unknown variable "foo"" */
  message: string;
}

// a writer of its own, its cache emptied after each parse: drafts are parsed at each pause in typing
const writer = new Writer();

const PART_NAMES: Record<TemplatePart, string> = { subject: "Subject", html: "HTML body", text: "Text body" };

/** mustache's token: [type, value, start, end, children?, ...]. */
type Token = [string, string, number, number, Token[]?, ...unknown[]];

function positionOf(source: string, index: number): { line: number; column: number } {
  const before = source.slice(0, Math.max(0, Math.min(index, source.length)));
  const lines = before.split("\n");
  return { line: lines.length, column: (lines.at(-1)?.length ?? 0) + 1 };
}

function problem(part: TemplatePart, source: string, index: number, reason: string): TemplateProblem {
  const { line, column } = positionOf(source, index);
  return { part, line, column, reason, message: `${PART_NAMES[part]}, line ${line}: ${reason}` };
}

const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** mustache's parse error as a reason and the index it concerns. */
function parseFailure(source: string, err: unknown): { reason: string; index: number } {
  const message = err instanceof Error ? err.message : String(err);
  const match = /^(.*) at (\d+)$/.exec(message);
  const reason = match?.[1] ?? message;
  let index = match?.[2] ? Number(match[2]) : 0;
  const unclosed = /^Unclosed section "(.*)"$/.exec(reason);
  if (unclosed?.[1] !== undefined) {
    // mustache names the end of the template: point at the section's opening tag instead
    const opener = new RegExp(`\\{\\{\\s*[#^]\\s*${escapeRegExp(unclosed[1])}\\s*\\}\\}`, "g");
    for (let m = opener.exec(source); m; m = opener.exec(source)) index = m.index;
  }
  return { reason, index };
}

function checkTokens(
  part: TemplatePart,
  source: string,
  tokens: Token[],
  known: ReadonlySet<string>,
  problems: TemplateProblem[],
): void {
  for (const token of tokens) {
    const [type, value, start] = token;
    switch (type) {
      case "text":
      case "!":
        break;
      case "name":
      case "#":
      case "^":
        if (!known.has(value)) problems.push(problem(part, source, start, `Unknown variable "${value}"`));
        if (type !== "name") checkTokens(part, source, token[4] ?? [], known, problems);
        break;
      case ">":
        problems.push(problem(part, source, start, `Partials ({{> ${value}}}) are not allowed`));
        break;
      case "&":
      case "{":
        problems.push(
          problem(part, source, start, `Unescaped output of "${value}" is not allowed: write {{${value}}}`),
        );
        break;
      case "=":
        problems.push(problem(part, source, start, "Changing the delimiters is not allowed"));
        break;
      default:
        problems.push(problem(part, source, start, "This tag is not allowed"));
    }
  }
}

/**
 * Every problem of a template's parts for a template offered `variables`: a part that does not
 * parse (mustache's reason, at its line), a variable not offered, and the refused tags. Empty when
 * the template may be saved.
 */
export function templateProblems(parts: EmailTemplateParts, variables: Iterable<string>): TemplateProblem[] {
  const known = new Set(variables);
  const problems: TemplateProblem[] = [];
  for (const part of ["subject", "html", "text"] as const) {
    const source = parts[part];
    let tokens: Token[];
    try {
      tokens = writer.parse(source) as Token[];
    } catch (err) {
      const failure = parseFailure(source, err);
      problems.push(problem(part, source, failure.index, failure.reason));
      continue;
    } finally {
      writer.clearCache();
    }
    checkTokens(part, source, tokens, known, problems);
  }
  return problems;
}
