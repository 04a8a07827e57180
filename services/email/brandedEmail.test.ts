import { randomBytes } from "node:crypto";
import type { PayloadOf } from "@schema/events";
import type { Db } from "@services/shared/db";
import { emit } from "@services/shared/events/outbox";
import { waitFor } from "@services/shared/events/testing/bus";
import { getBrandingSettings, updateBranding } from "@services/user";
import { DEFAULT_EMAIL_TEMPLATES } from "./defaultTemplates";
import { layOutEmail } from "./emailLayout";
import type { EmailVariables } from "./renderEmail";
import { previewEmailTemplate } from "./templateAdmin";
import { sampleVariables } from "./templateCatalog";
import type { TestSmtp } from "./testing/smtpServer";
import { queueTestEmail, registerEmailPipeline, TEST_PUBLIC_URL } from "./testing/world";

// Every email in the one branded layout (issue 21 §2): the logo and title from Branding at the top,
// the template's content, a footer with the firm's name, support phone and consultation email, and
// a plain-text part made from the same content. Branding is read as each email is rendered, so a
// change shows in the next email without editing a template.

const pipeline = registerEmailPipeline();
let db: Db;
let smtp: TestSmtp;

beforeAll(() => {
  ({ db, smtp } = pipeline());
});

const ADMIN = { id: 1, name: "Brand Admin" };
const SEEDED = {
  title: "ESRT",
  logoUrl: "/logo.svg",
  supportPhone: "(555) 010-0100",
  consultationEmail: "consultations@portal.localhost",
  businessHours: "9AM-5PM PST",
};

/** HTML's character references as the template engine writes them, decoded. */
function decode(value: string): string {
  return value
    .replace(/&#x([0-9a-f]+);/gi, (_m, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

/** The addresses of every <img> of an HTML part, decoded. */
function imageSources(html: string): string[] {
  return [...html.matchAll(/<img\b[^>]*\bsrc="([^"]*)"/g)].map((m) => decode(m[1] ?? ""));
}

/** The HTML part's visible text: without head, comments and tags, entities decoded, spaces collapsed. */
function visibleText(html: string): string {
  const body = html.replace(/<head>[\s\S]*?<\/head>/, "").replace(/<!--[\s\S]*?-->/g, "");
  return decode(body.replace(/<[^>]+>/g, " "))
    .replace(/\s+/g, " ")
    .trim();
}

/** An HTML tag in a text part (a link's address in angle brackets, <https://…>, is not one). */
const HTML_TAG = /<\/?[a-z][a-z0-9]*(\s[^>]*)?\/?>/i;

async function setBranding(changes: Partial<typeof SEEDED>): Promise<void> {
  const current = await getBrandingSettings(db);
  const { updatedAt: _at, updatedBy: _by, ...values } = current;
  await updateBranding({ db, actor: ADMIN, input: { ...values, ...changes } });
}

afterEach(async () => {
  await setBranding(SEEDED);
});

describe("the branded layout", () => {
  it("lays out every template's preview as the whole email: logo, title, content, footer, and a text part", async () => {
    for (const template of DEFAULT_EMAIL_TEMPLATES) {
      const { key, subject, html, text } = template;
      const preview = await previewEmailTemplate({ db, input: { key, subject, html, text } });
      expect([key, preview.problems]).toEqual([key, []]);
      const rendered = preview.rendered;
      if (!rendered) throw new Error(`no preview of ${key}`);

      // the layout: a 600 px body, dark-mode colours announced, the logo at an absolute address
      expect(rendered.html).toMatch(/^<!doctype html>/i);
      expect(rendered.html).toContain("max-width:600px");
      expect(rendered.html).toContain('<meta name="color-scheme" content="light dark">');
      expect(rendered.html).toContain("prefers-color-scheme: dark");
      expect(imageSources(rendered.html)).toEqual([`${TEST_PUBLIC_URL}/logo.svg`]);
      const shown = visibleText(rendered.html);
      expect(shown.startsWith("ESRT ")).toBe(true); // the title beside the logo, first
      expect(shown).toContain(
        "ESRT Support phone: (555) 010-0100 Consultation email: consultations@portal.localhost",
      );
      expect(rendered.html).toContain('href="tel:5550100100"');
      expect(rendered.html).toContain('href="mailto:consultations@portal.localhost"');

      // every variable filled: none left, and each one the content uses shows its sample
      const all = `${rendered.subject}\n${rendered.html}\n${rendered.text}`;
      expect([key, all.includes("{{") || all.includes("}}")]).toEqual([key, false]);
      // (previews fill productName and supportPhone from Branding, the others with their samples)
      const samples: EmailVariables = {
        ...sampleVariables(key),
        productName: "ESRT",
        supportPhone: "(555) 010-0100",
      };
      const used = new Set([...html.matchAll(/\{\{[#^]?(\w+)\}\}/g)].map((m) => m[1] ?? ""));
      for (const name of used) {
        expect([key, name, rendered.text.includes(String(samples[name]))]).toEqual([key, name, true]);
      }

      // the text part: readable, in its layout, with the link's address
      expect([key, HTML_TAG.test(rendered.text)]).toEqual([key, false]);
      expect(rendered.text.startsWith("ESRT\n\n")).toBe(true);
      expect(rendered.text).toContain(`<${String(samples.link)}>`);
      expect(rendered.text).toMatch(
        /\n-- \nESRT\nSupport phone: \(555\) 010-0100\nConsultation email: consultations@portal\.localhost\n$/,
      );
    }
  });

  it("shows a branding change in the next email, with the branding's values escaped", async () => {
    const queueWelcome = (to: string) =>
      queueTestEmail(db, {
        templateKey: "welcome",
        to,
        variables: () => ({
          firstName: "Ada",
          lastName: "Lovelace",
          username: "ada",
          link: `${TEST_PUBLIC_URL}/auth`,
        }),
      });
    const before = await queueWelcome("before@client.test");
    expect(before.subject).toBe("Welcome to ESRT Portal");

    await setBranding({
      title: "Smith & <Sons>",
      logoUrl: "https://cdn.firm.test/brand/logo.png?v=2&size=80",
      supportPhone: "+1 (555) 777-0000",
      consultationEmail: "advice@smith.test",
    });
    const after = await queueWelcome("after@client.test");
    expect(after.subject).toBe("Welcome to Smith & <Sons> Portal");
    expect(imageSources(after.html)).toEqual(["https://cdn.firm.test/brand/logo.png?v=2&size=80"]);
    expect(after.html).not.toContain("<Sons>");
    expect(after.html).toContain("<title>Smith &amp; &lt;Sons&gt;</title>");
    const shown = visibleText(after.html);
    expect(shown.startsWith("Smith & <Sons> Hello Ada,")).toBe(true);
    expect(shown).toContain(
      "Smith & <Sons> Support phone: +1 (555) 777-0000 Consultation email: advice@smith.test",
    );
    expect(after.html).toContain('href="tel:+15557770000"');
    expect(after.text.startsWith("Smith & <Sons>\n\nHello Ada,\n\nWelcome to Smith & <Sons> Portal.")).toBe(
      true,
    );
    expect(after.text).toContain("Support phone: +1 (555) 777-0000\nConsultation email: advice@smith.test");
    // the stored template was not touched
    const stored = await db.prisma.emailTemplate.findUniqueOrThrow({ where: { key: "welcome" } });
    expect(stored.html).not.toContain("Smith");
  });

  it("delivers the changed product title over SMTP, in the subject, the header, the footer and the text", async () => {
    await setBranding({ title: "Harbor Receivables" });
    const email = `mary-${randomBytes(3).toString("hex")}@client.test`;
    const payload: PayloadOf<"user.password_changed"> = { userId: 44, email, firstName: "Mary", via: "self" };
    await db.prisma.$transaction((tx) => emit(tx, { type: "user.password_changed", payload }));
    await waitFor(() => smtp.to(email).length === 1, "the password-changed email");
    const [mail] = smtp.to(email);
    expect(mail?.subject).toBe("Your Harbor Receivables password was changed");
    const shown = visibleText(mail?.html ?? "");
    expect(shown.startsWith("Harbor Receivables Hello Mary,")).toBe(true);
    expect(shown).toContain("Harbor Receivables Support phone: (555) 010-0100");
    expect(shown).not.toContain("ESRT");
    expect(imageSources(mail?.html ?? "")).toEqual([`${TEST_PUBLIC_URL}/logo.svg`]);
    expect(mail?.text.startsWith("Harbor Receivables\n\nHello Mary,")).toBe(true);
    expect(mail?.text).toContain("\n-- \nHarbor Receivables\n");
    expect(mail?.text).toContain(`reset your password <${TEST_PUBLIC_URL}/auth>`);
  });
});

describe("layOutEmail", () => {
  const branding = {
    productName: "ESRT",
    logoUrl: "/brand/logo.png",
    supportPhone: "",
    consultationEmail: "",
    publicUrl: "https://portal.test/",
  };

  it("leaves out a footer line whose branding value is empty", async () => {
    const email = layOutEmail({ subject: "s", html: "<p>Hi</p>", text: "" }, branding);
    expect(imageSources(email.html)).toEqual(["https://portal.test/brand/logo.png"]);
    expect(visibleText(email.html)).toBe("ESRT Hi ESRT");
    expect(email.html).not.toContain("Support phone");
    expect(email.text).toBe("ESRT\n\nHi\n\n-- \nESRT\n");
  });

  it("sends a text body an admin wrote, in the text layout, instead of the one made from the HTML", async () => {
    const email = layOutEmail(
      { subject: "s", html: "<p>From <b>HTML</b></p>", text: "Written by hand.\n" },
      branding,
    );
    expect(email.text).toBe("ESRT\n\nWritten by hand.\n\n-- \nESRT\n");
    expect(visibleText(email.html)).toContain("From HTML");
  });

  it("puts the content in once: text that looks like a placeholder stays as it is", async () => {
    const email = layOutEmail(
      { subject: "s", html: "<p>%%PORTAL_FOOTER%% %%PORTAL_TITLE%%</p>", text: "" },
      { ...branding, supportPhone: "123" },
    );
    expect(visibleText(email.html)).toContain("%%PORTAL_FOOTER%% %%PORTAL_TITLE%%");
    expect(email.text).toContain("%%PORTAL_FOOTER%% %%PORTAL_TITLE%%");
  });
});
