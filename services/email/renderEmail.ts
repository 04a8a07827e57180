import { render } from "mustache";

/** The three parts of a stored template: subject, HTML body and text body, with {{variables}}. */
export interface EmailTemplateParts {
  subject: string;
  html: string;
  text: string;
}

/** Values for a template's {{variables}}; a missing or null value renders as nothing. */
export type EmailVariables = Record<string, string | number | null | undefined>;

/** A rendered message, ready to store and send. */
export type RenderedEmail = EmailTemplateParts;

const verbatim = (value: unknown): string => String(value);

/**
 * Fills a template with values: HTML-escaped in the HTML part (mustache's escaping), verbatim in the
 * subject and the text part; line breaks in the subject become spaces. Admin-edited templates may
 * use any mustache syntax; `{{{name}}}` (unescaped) is theirs to answer for.
 * @throws Error when a part is not a valid mustache template (for example an unclosed section).
 */
export function renderEmail(template: EmailTemplateParts, variables: EmailVariables): RenderedEmail {
  const view: Record<string, string> = {};
  for (const [name, value] of Object.entries(variables)) {
    view[name] = value === null || value === undefined ? "" : String(value);
  }
  return {
    subject: render(template.subject, view, undefined, { escape: verbatim })
      .replace(/[\r\n]+/g, " ")
      .trim(),
    html: render(template.html, view),
    text: render(template.text, view, undefined, { escape: verbatim }),
  };
}
