import { templateCache } from "mustache";
import { DEFAULT_EMAIL_TEMPLATES } from "./defaultTemplates";
import { renderEmail, renderEmailInLayout } from "./renderEmail";
import { assertCatalogued, sampleVariables, TEMPLATE_CATALOG, templateVariables } from "./templateCatalog";
import { templateProblems } from "./templateRules";

// The catalog against the default templates; what the consumers pass is checked at every queueEmail
// (assertCatalogued), so the consumer tests (consumers/*.test.ts) fail on a variable missing here.

describe("the template variable catalog", () => {
  it("has one catalog per template the portal sends, each with a description and a sample", () => {
    expect([...TEMPLATE_CATALOG.keys()]).toEqual(DEFAULT_EMAIL_TEMPLATES.map((t) => t.key));
    for (const [key, variables] of TEMPLATE_CATALOG) {
      const names = variables.map((v) => v.name);
      expect([key, new Set(names).size]).toEqual([key, names.length]);
      for (const v of variables) {
        expect(v.description.length).toBeGreaterThan(3);
        expect(v.sample.length).toBeGreaterThan(0);
      }
    }
  });

  it("offers every variable each default template uses, and the defaults pass the save rules", () => {
    for (const template of DEFAULT_EMAIL_TEMPLATES) {
      const names = (templateVariables(template.key) ?? []).map((v) => v.name);
      expect([template.key, templateProblems(template, names)]).toEqual([template.key, []]);
    }
  });

  it("fills every default template with its samples, leaving no {{variable}}", async () => {
    const branding = {
      productName: "ESRT",
      logoUrl: "/logo.svg",
      supportPhone: "(555) 010-0100",
      consultationEmail: "consultations@firm.test",
      publicUrl: "https://portal.test",
    };
    for (const template of DEFAULT_EMAIL_TEMPLATES) {
      const rendered = await renderEmailInLayout(template, sampleVariables(template.key), branding);
      expect(`${rendered.subject}${rendered.html}${rendered.text}`).not.toMatch(/\{\{|\}\}/);
      expect(rendered.text).toContain("Maria"); // a sample reached the body (made from the HTML)
    }
  });

  it("refuses a variable a sender passes that the catalog does not list", () => {
    expect(() => assertCatalogued("welcome", ["firstName", "link"])).not.toThrow();
    expect(() => assertCatalogued("welcome", ["firstName", "resetToken"])).toThrow(
      'email template "welcome" is not offered the variable "resetToken"',
    );
    expect(() => assertCatalogued("nope", [])).toThrow('email template "nope" does not exist');
  });
});

describe("templateProblems", () => {
  const known = ["firstName", "link"];

  it("accepts variables, sections, inverted sections and comments on known variables", () => {
    const parts = {
      subject: "Hi {{ firstName }}",
      html: '{{#link}}<a href="{{link}}">x</a>{{/link}}',
      text: "{{^link}}none{{/link}}{{! note }}",
    };
    expect(templateProblems(parts, known)).toEqual([]);
  });

  it("names the part, line, column and reason of each problem", () => {
    const problems = templateProblems(
      {
        subject: "ok",
        html: "<p>\n\n  {{token}} {{> footer}}\n{{=<% %>=}}</p>",
        text: "{{&firstName}}\n{{{link}}}",
      },
      known,
    );
    expect(problems.map((p) => p.message)).toEqual([
      'HTML body, line 3: Unknown variable "token"',
      "HTML body, line 3: Partials ({{> footer}}) are not allowed",
      "HTML body, line 4: Changing the delimiters is not allowed",
      'Text body, line 1: Unescaped output of "firstName" is not allowed: write {{firstName}}',
      'Text body, line 2: Unescaped output of "link" is not allowed: write {{link}}',
    ]);
    expect(problems[0]).toMatchObject({ part: "html", line: 3, column: 3 });
  });

  it("answers mustache's own reason for a template that does not parse", () => {
    const cases: [string, string][] = [
      ["a\n{{/link}}", 'Text body, line 2: Unopened section "link"'],
      ["a {{firstName", "Text body, line 1: Unclosed tag"],
      ["x\n{{#link}}\n{{#firstName}}{{/link}}", 'Text body, line 3: Unclosed section "firstName"'],
      ["one\ntwo {{#link}} three", 'Text body, line 2: Unclosed section "link"'],
    ];
    for (const [text, message] of cases) {
      expect(templateProblems({ subject: "s", html: "h", text }, known).map((p) => p.message)).toEqual([
        message,
      ]);
    }
  });
});

describe("drafts", () => {
  it("are neither parsed nor rendered into mustache's shared cache (a preview per pause in typing)", () => {
    const cached = () => Object.keys(Reflect.get(templateCache ?? {}, "_cache") ?? {}).length;
    const before = cached();
    for (let i = 0; i < 20; i++) {
      const parts = { subject: `Draft ${i} {{firstName}}`, html: `<p>${i}</p>`, text: `${i}` };
      expect(templateProblems(parts, ["firstName"])).toEqual([]);
      expect(renderEmail(parts, { firstName: "Ann" }, { draft: true }).subject).toBe(`Draft ${i} Ann`);
    }
    expect(cached()).toBe(before);
    renderEmail({ subject: "Stored {{firstName}}", html: "x", text: "x" }, { firstName: "Ann" });
    expect(cached()).toBeGreaterThan(before);
  });
});
