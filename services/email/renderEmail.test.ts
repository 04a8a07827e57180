import { DEFAULT_EMAIL_TEMPLATES } from "./defaultTemplates";
import { renderEmail } from "./renderEmail";
import { DEFAULT_RETRY, redactTokens, retryDelayMs } from "./sendDueEmails";

describe("renderEmail", () => {
  it("refuses a template that does not parse", () => {
    expect(() => renderEmail({ subject: "{{#open}}", html: "", text: "" }, {})).toThrow(/Unclosed section/);
  });

  it("escapes values in the HTML part only, and keeps the subject on one line", () => {
    const rendered = renderEmail(
      { subject: "Hi {{name}}", html: "<p>{{name}}</p>", text: "Hi {{name}}" },
      { name: '<b>Tom</b> & "Jerry"\r\nBcc: x@y.test' },
    );
    expect(rendered.html).toBe("<p>&lt;b&gt;Tom&lt;&#x2F;b&gt; &amp; &quot;Jerry&quot;\r\nBcc: x@y.test</p>");
    expect(rendered.text).toBe('Hi <b>Tom</b> & "Jerry"\r\nBcc: x@y.test');
    expect(rendered.subject).toBe('Hi <b>Tom</b> & "Jerry" Bcc: x@y.test');
  });

  it("renders a missing or null variable as nothing, and a value's braces as text", () => {
    const rendered = renderEmail(
      { subject: "[{{a}}][{{b}}]", html: "{{c}}", text: "{{c}}" },
      { b: null, c: "{{a}}" },
    );
    expect(rendered.subject).toBe("[][]");
    expect(rendered.text).toBe("{{a}}");
  });

  it("fills every default template without leaving a {{variable}} unfilled", () => {
    for (const template of DEFAULT_EMAIL_TEMPLATES) {
      const names = new Set(
        [...`${template.subject}${template.html}${template.text}`.matchAll(/\{\{(\w+)\}\}/g)].map(
          (m) => m[1] ?? "",
        ),
      );
      const rendered = renderEmail(template, Object.fromEntries([...names].map((n) => [n, `v-${n}`])));
      expect(`${rendered.subject}${rendered.html}${rendered.text}`).not.toContain("{{");
      expect(rendered.subject).not.toBe("");
    }
  });
});

describe("retry delays", () => {
  it("double after each failure up to the cap", () => {
    const policy = { baseMs: 100, maxMs: 1000, maxAttempts: 8 };
    expect([1, 2, 3, 4, 5, 9].map((n) => retryDelayMs(policy, n))).toEqual([100, 200, 400, 800, 1000, 1000]);
    expect(retryDelayMs(DEFAULT_RETRY, 1)).toBe(30_000);
    expect(retryDelayMs(DEFAULT_RETRY, 8)).toBe(3_600_000);
  });
});

describe("redactTokens", () => {
  it("removes one-time tokens from links in text and escaped HTML, leaving the rest", () => {
    expect(redactTokens("Open https://p.test/auth?mode=verify-email&token=abc_DEF-123 now")).toBe(
      "Open https://p.test/auth?mode=verify-email&token=redacted now",
    );
    expect(
      redactTokens('<a href="https://p.test/auth?mode&#x3D;reset-password&amp;token&#x3D;xyz-9">go</a>'),
    ).toBe('<a href="https://p.test/auth?mode&#x3D;reset-password&amp;token&#x3D;redacted">go</a>');
    expect(redactTokens("No links here.")).toBe("No links here.");
  });
});
