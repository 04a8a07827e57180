import { convert } from "html-to-text";
import { escape as escapeHtml } from "mustache";
import { COMPILED_LAYOUT } from "./layout/compiledLayout";
import { LAYOUT_COLOURS, SLOTS, type Slot } from "./layout/layoutSource";
import type { RenderedEmail } from "./renderEmail";

// The one layout every email is sent in (issue 21 §2): the logo and product title from Branding at
// the top, the template's content, and a footer with the firm's name, support phone and consultation
// email. Written in MJML (responsive, tables where mail clients need them, styles inlined, a 600 px
// body) and compiled to HTML with placeholders when the layout changes (npm run email:layout, checked
// by a test), so no process compiles MJML; each email fills the placeholders with its branding,
// read with its mail context, and its content. Templates hold content only; admins cannot edit the
// layout. The plain-text part is the same content (the template's text body, or its HTML turned
// into text) inside a text layout of the same parts.

/** The branding an email is laid out with, read at render time (loadMailContext). */
export interface EmailBranding {
  /** the product title: the header and the firm's name in the footer */
  productName: string;
  /** absolute (https) or a path on the portal ("/logo.svg"), made absolute with publicUrl */
  logoUrl: string;
  /** empty: no phone line in the footer */
  supportPhone: string;
  /** empty: no email line in the footer */
  consultationEmail: string;
  /** the portal's public address, without a trailing slash */
  publicUrl: string;
}

/** The layout's colours (./layout/layoutSource.ts). */
const COLOURS = LAYOUT_COLOURS;

/** The placeholders of the compiled layout, and the pattern that finds them. */
const SLOT_PATTERN = /%%PORTAL_([A-Z_]+)%%/g;

/** `url` as an absolute address: a path on the portal is joined to its public address. */
function absoluteUrl(url: string, publicUrl: string): string {
  if (/^\/(?![/\\])/.test(url)) return `${publicUrl.replace(/\/+$/, "")}${url}`;
  return url;
}

/** A phone number as a tel: link's target: its digits, and a leading +. */
function telTarget(phone: string): string {
  const digits = phone.replace(/[^\d+]/g, "");
  return digits.startsWith("+") ? `+${digits.slice(1).replace(/\+/g, "")}` : digits.replace(/\+/g, "");
}

/** The footer's lines, in order, each left out when its branding value is empty. */
function footerLines(branding: EmailBranding): { label: string | null; value: string }[] {
  return [
    { label: null, value: branding.productName.trim() },
    { label: "Support phone", value: branding.supportPhone.trim() },
    { label: "Consultation email", value: branding.consultationEmail.trim() },
  ].filter((line) => line.value !== "");
}

function footerHtml(branding: EmailBranding): string {
  const link = `color:${COLOURS.muted};text-decoration:underline`;
  return footerLines(branding)
    .map(({ label, value }) => {
      const shown = escapeHtml(value);
      if (label === null) return `<strong>${shown}</strong>`;
      const target = label === "Support phone" ? `tel:${telTarget(value)}` : `mailto:${value}`;
      return `${label}: <a href="${escapeHtml(target)}" style="${link}">${shown}</a>`;
    })
    .join("<br>");
}

/**
 * A template's rendered content (its HTML, and its text body, empty when the template has none) in
 * the layout: the HTML inside the compiled MJML layout, the text inside the text layout (the
 * template's text, or its HTML turned into text when it has none). Branding values are HTML-escaped;
 * the content is put in as it is (the template engine escaped its values).
 */
export function layOutEmail(content: RenderedEmail, branding: EmailBranding): RenderedEmail {
  const layout = COMPILED_LAYOUT;
  const values: Record<Slot, string> = {
    TITLE: escapeHtml(branding.productName),
    LOGO_URL: escapeHtml(absoluteUrl(branding.logoUrl, branding.publicUrl)),
    CONTENT: content.html,
    FOOTER: footerHtml(branding),
  };
  const html = layout.replace(SLOT_PATTERN, (match, name: string) =>
    (SLOTS as readonly string[]).includes(name) ? values[name as Slot] : match,
  );
  const body = content.text.trim() !== "" ? content.text.trim() : htmlToText(content.html);
  return { subject: content.subject, html, text: textLayout(body, branding) };
}

/**
 * An email's HTML content as plain text: paragraphs on their own lines, a link's address after its
 * words in angle brackets (so a redacted one-time token is found again: oneTimeLinks.ts), no
 * wrapping (mail clients wrap themselves).
 */
function htmlToText(html: string): string {
  return convert(html, {
    wordwrap: false,
    selectors: [
      { selector: "a", options: { linkBrackets: ["<", ">"], hideLinkHrefIfSameAsText: true } },
      { selector: "img", format: "skip" },
    ],
  }).trim();
}

/** The text part: the title, the content, and the footer's lines after the "-- " separator. */
function textLayout(body: string, branding: EmailBranding): string {
  const footer = footerLines(branding).map(({ label, value }) => (label ? `${label}: ${value}` : value));
  return [branding.productName.trim(), "", body, "", "-- ", ...footer, ""].join("\n");
}
