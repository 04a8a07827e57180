import { render, Writer } from "mustache";
import { type EmailBranding, layOutEmail } from "./emailLayout";

/**
 * The three parts of a stored template: subject, HTML body and text body, with {{variables}}. The
 * bodies are content only (the layout is added at render: ./emailLayout.ts); an empty text body is
 * made from the HTML body.
 */
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

// mustache keeps every template it parses, without a bound: fine for the stored templates, not for
// the drafts an admin's preview renders at each pause in typing. Drafts use a writer of their own
// whose cache is emptied after each render.
const draftWriter = new Writer();

type RenderOptions = { escape: (value: unknown) => string } | undefined;

function renderDraft(template: string, view: Record<string, string>, options: RenderOptions): string {
  try {
    return draftWriter.render(template, view, undefined, options);
  } finally {
    draftWriter.clearCache();
  }
}

/**
 * Fills a template with values: HTML-escaped in the HTML part (mustache's escaping), verbatim in the
 * subject and the text part; line breaks in the subject become spaces. What an admin-edited
 * template may contain is checked at save (templateRules.ts: no unescaped output, no partials).
 * `draft`: a template that is not stored (a preview or a test send of a draft), not kept in
 * mustache's cache.
 * @throws Error when a part is not a valid mustache template (for example an unclosed section).
 */
export function renderEmail(
  template: EmailTemplateParts,
  variables: EmailVariables,
  options: { draft?: boolean } = {},
): RenderedEmail {
  const view: Record<string, string> = {};
  for (const [name, value] of Object.entries(variables)) {
    view[name] = value === null || value === undefined ? "" : String(value);
  }
  const fill = options.draft
    ? renderDraft
    : (part: string, values: Record<string, string>, config: RenderOptions) =>
        render(part, values, undefined, config);
  return {
    subject: fill(template.subject, view, { escape: verbatim })
      .replace(/[\r\n]+/g, " ")
      .trim(),
    html: fill(template.html, view, undefined),
    text: fill(template.text, view, { escape: verbatim }),
  };
}

/**
 * A whole email as it is sent: the template filled with values ({@link renderEmail}), its content in
 * the layout with `branding` (the logo, title and footer; the text part made from the HTML when the
 * template's text body is empty). Every email the portal sends or previews is rendered by this.
 * @throws Error when a part does not parse.
 */
export function renderEmailInLayout(
  template: EmailTemplateParts,
  variables: EmailVariables,
  branding: EmailBranding,
  options: { draft?: boolean } = {},
): RenderedEmail {
  return layOutEmail(renderEmail(template, variables, options), branding);
}
