// The source of the one layout every email is sent in (issue 21 §2), in MJML: ../emailLayout.ts
// fills its compiled HTML (./compiledLayout.ts, made from this by `npm run email:layout`; a test
// fails when the two differ) with each email's branding and content.

/** The layout's colours: light, and the dark ones for clients that honour prefers-color-scheme. */
export const LAYOUT_COLOURS = {
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
export const SLOTS = ["TITLE", "LOGO_URL", "CONTENT", "FOOTER"] as const;
export type Slot = (typeof SLOTS)[number];
/** The placeholder of `name` in the layout. */
export const slot = (name: Slot) => `%%PORTAL_${name}%%`;

const c = LAYOUT_COLOURS;
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
export const LAYOUT_MJML = `<mjml lang="en">
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
