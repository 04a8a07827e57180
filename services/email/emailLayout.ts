import { convert } from "html-to-text";
import { escape as escapeHtml } from "mustache";
import type { RenderedEmail } from "./renderEmail";

// The one layout every email is sent in (issue 21 §2): the logo and product title from Branding at
// the top, the template's content, and a footer with the firm's name, support phone and consultation
// email. Written in MJML (responsive, tables where mail clients need them, styles inlined, a 600 px
// body) and compiled once per process with placeholders; each email fills them with its branding,
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

/** The layout's colours: light, and the dark ones for clients that honour prefers-color-scheme. */
const COLOURS = {
  page: "#f6f7f9",
  card: "#ffffff",
  text: "#1c2127",
  muted: "#5f6b7c",
  link: "#215db0",
  rule: "#dce0e5",
  darkPage: "#111418",
  darkCard: "#1c2127",
  darkText: "#f6f7f9",
  darkMuted: "#abb3bf",
  darkLink: "#8abbff",
  darkRule: "#383e47",
} as const;

// Placeholders the compiled HTML is filled at (all in one pass, so a value is never read again).
const SLOTS = ["TITLE", "LOGO_URL", "CONTENT", "FOOTER"] as const;
type Slot = (typeof SLOTS)[number];
const slot = (name: Slot) => `%%PORTAL_${name}%%`;
const SLOT_PATTERN = /%%PORTAL_([A-Z_]+)%%/g;

const c = COLOURS;
// Clients that honour prefers-color-scheme (Apple Mail, Outlook for Mac, some webmail) get dark
// colours; Outlook.com marks its dark mode with [data-ogsc]/[data-ogsb]. Other clients that darken
// emails on their own (Gmail's apps) get colours chosen to survive that: no pure black on pure white.
const darkCss = (fg: string, bg: string) => `
  ${bg}.portal-page, ${bg}.portal-page > div { background-color: ${c.darkPage} !important; }
  ${bg}.portal-card, ${bg}.portal-card > table, ${bg}.portal-card td { background-color: ${c.darkCard} !important; }
  ${fg}.portal-text div, ${fg}.portal-text td, ${fg}.portal-title { color: ${c.darkText} !important; }
  ${fg}.portal-content a { color: ${c.darkLink} !important; }
  ${fg}.portal-footer div, ${fg}.portal-footer a { color: ${c.darkMuted} !important; }
  ${fg}.portal-content blockquote { border-left-color: ${c.darkRule} !important; }`;

/** The layout in MJML: {@link SLOTS} mark where branding and content go. */
const LAYOUT_MJML = `<mjml lang="en">
  <mj-head>
    <mj-title>${slot("TITLE")}</mj-title>
    <mj-attributes>
      <mj-all font-family="Arial, Helvetica, sans-serif" />
      <mj-text font-size="15px" line-height="1.5" color="${c.text}" padding="0 32px" />
      <mj-section padding="0" />
    </mj-attributes>
    <mj-raw>
      <meta name="color-scheme" content="light dark">
      <meta name="supported-color-schemes" content="light dark">
    </mj-raw>
    <mj-style>
      :root { color-scheme: light dark; supported-color-schemes: light dark; }
      .portal-content a { color: ${c.link}; }
      .portal-content p { margin: 0 0 16px; }
      .portal-content blockquote { margin: 0 0 16px; padding-left: 12px; border-left: 3px solid ${c.rule}; }
      @media (prefers-color-scheme: dark) {${darkCss("", "")}
      }
      ${darkCss("[data-ogsc] ", "[data-ogsb] ")}
    </mj-style>
  </mj-head>
  <mj-body width="600px" background-color="${c.page}" css-class="portal-page">
    <mj-wrapper padding="24px 0 32px">
      <mj-section background-color="${c.card}" padding="24px 0 8px" css-class="portal-card">
        <mj-column>
          <mj-text css-class="portal-text">
            <table role="presentation" cellpadding="0" cellspacing="0" border="0">
              <tr>
                <td style="padding:0 12px 0 0;vertical-align:middle">
                  <img src="${slot("LOGO_URL")}" alt="" height="40" style="display:block;height:40px;width:auto;max-width:160px;border:0;outline:none;text-decoration:none">
                </td>
                <td class="portal-title" style="vertical-align:middle;font-family:Arial,Helvetica,sans-serif;font-size:20px;line-height:1.3;font-weight:bold;color:${c.text}">${slot("TITLE")}</td>
              </tr>
            </table>
          </mj-text>
          <mj-divider border-width="1px" border-color="${c.rule}" padding="20px 32px 0" />
        </mj-column>
      </mj-section>
      <mj-section background-color="${c.card}" padding="20px 0 8px" css-class="portal-card">
        <mj-column>
          <mj-text css-class="portal-text portal-content">${slot("CONTENT")}</mj-text>
        </mj-column>
      </mj-section>
      <mj-section padding="16px 0 0">
        <mj-column>
          <mj-text css-class="portal-footer" font-size="13px" color="${c.muted}">${slot("FOOTER")}</mj-text>
        </mj-column>
      </mj-section>
    </mj-wrapper>
  </mj-body>
</mjml>`;

let compiled: Promise<string> | undefined;

async function compile(): Promise<string> {
  // loaded at the first email, not with the service: MJML and its dependencies take half a second
  const { default: mjml2html } = await import("mjml");
  const result = await mjml2html(LAYOUT_MJML, { validationLevel: "strict", fonts: {}, keepComments: true });
  const html = result.html;
  for (const name of SLOTS) {
    if (!html.includes(slot(name))) throw new Error(`the email layout lost its ${name} placeholder`);
  }
  return html;
}

/**
 * The layout compiled to HTML with its placeholders, once per process (compiling MJML takes tens of
 * milliseconds; filling it, microseconds).
 * @throws Error when MJML refuses the layout (a bug: the layout test compiles it).
 */
export function compiledLayout(): Promise<string> {
  if (!compiled) {
    compiled = compile();
    compiled.catch(() => {
      compiled = undefined;
    });
  }
  return compiled;
}

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
 * @throws Error when the layout does not compile (see {@link compiledLayout}).
 */
export async function layOutEmail(content: RenderedEmail, branding: EmailBranding): Promise<RenderedEmail> {
  const layout = await compiledLayout();
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
