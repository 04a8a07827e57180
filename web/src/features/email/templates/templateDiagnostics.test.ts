import { EMAIL_TEMPLATE_MESSAGES } from "@schema/validation/emailTemplates";
import { findTag, locateSaveProblem, partDiagnostics, tagLengthAt } from "./templateDiagnostics";

const parts = {
  subject: "Confirm {{productName}}",
  html: '<p>Hello {{firstName}},</p>\n<p><a href="{{link}}">Confirm</a> {{ secret }}</p>',
  text: "Hello {{firstName}},\n{{#secret}}x{{/secret}}",
};

describe("where a template's problems are", () => {
  it("finds the tag at a line and column, and the first tag naming a variable", () => {
    expect(tagLengthAt(parts.html, 2, 35)).toBe("{{ secret }}".length);
    expect(tagLengthAt(parts.html, 2, 1)).toBeUndefined();
    expect(findTag(parts.html, "secret")).toEqual({ line: 2, column: 35 });
    expect(findTag(parts.text, "secret")).toEqual({ line: 2, column: 1 });
    expect(findTag(parts.html, "secre")).toBeUndefined();
  });

  it("reads a refused save's part and line, or the variable it names", () => {
    expect(locateSaveProblem('HTML body, line 2: Unknown variable "secret"', parts)).toEqual({
      part: "html",
      line: 2,
      column: 35,
      reason: 'Unknown variable "secret"',
    });
    expect(locateSaveProblem('Text body, line 2: Unclosed section "secret"', parts)).toEqual({
      part: "text",
      line: 2,
      column: 1,
      reason: 'Unclosed section "secret"',
    });
    // no line: the first tag that uses the variable it names
    expect(locateSaveProblem('Unknown variable "secret"', parts)).toMatchObject({ part: "html", line: 2 });
    expect(locateSaveProblem("The template cannot be saved", parts)).toBeNull();
  });

  it("puts a server problem on its line with its tag underlined, and a refused save once", () => {
    const problem = { part: "html" as const, line: 2, column: 35, reason: 'Unknown variable "secret"' };
    expect(partDiagnostics({ part: "html", text: parts.html, problems: [problem] })).toEqual([
      { line: 2, column: 35, length: 12, message: 'Unknown variable "secret"' },
    ]);
    // a problem of another part, and a save refusal the preview already lists, add nothing
    expect(partDiagnostics({ part: "text", text: parts.text, problems: [problem] })).toEqual([]);
    expect(
      partDiagnostics({ part: "html", text: parts.html, problems: [problem], saveProblem: problem }),
    ).toHaveLength(1);
    expect(partDiagnostics({ part: "html", text: parts.html, problems: [], saveProblem: problem })).toEqual([
      { line: 2, column: 35, length: 12, message: 'Unknown variable "secret"' },
    ]);
  });

  it("puts the schema's message on the first line of a blank part, on the last of an overlong one", () => {
    expect(
      partDiagnostics({
        part: "html",
        text: "  ",
        schemaError: EMAIL_TEMPLATE_MESSAGES.htmlRequired,
        problems: [],
      }),
    ).toEqual([{ line: 1, message: "HTML body is required" }]);
    expect(
      partDiagnostics({
        part: "text",
        text: "a\nb\nc",
        schemaError: EMAIL_TEMPLATE_MESSAGES.textTooLong,
        problems: [],
      }),
    ).toEqual([{ line: 3, message: "Text body must be at most 100000 characters" }]);
  });
});
