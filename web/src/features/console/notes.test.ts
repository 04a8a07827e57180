import { NOTES_TOO_LONG_MESSAGE } from "@schema/validation/user";
import { NOTES_TEXT, notesFailureMessage, notesSubmitDisabled, notesTooLong, wordCountLabel } from "./notes";

describe("wordCountLabel", () => {
  it("counts words out of 250, ignoring extra white space", () => {
    expect(wordCountLabel("")).toBe("0 / 250 words");
    expect(wordCountLabel("   ")).toBe("0 / 250 words");
    expect(wordCountLabel("Please call me\n after   lunch ")).toBe("5 / 250 words");
  });
});

describe("notesTooLong", () => {
  it("allows exactly 250 words and refuses 251", () => {
    expect(notesTooLong(Array(250).fill("word").join(" "))).toBe(false);
    expect(notesTooLong(Array(251).fill("word").join(" "))).toBe(true);
  });
});

describe("notesSubmitDisabled", () => {
  it("is disabled for empty or blank notes only", () => {
    expect(notesSubmitDisabled("")).toBe(true);
    expect(notesSubmitDisabled(" \n\t")).toBe(true);
    expect(notesSubmitDisabled("hello")).toBe(false);
  });
});

describe("notesFailureMessage", () => {
  it("shows the server's error field", () => {
    const failure = new Error(`400: ${JSON.stringify({ error: NOTES_TOO_LONG_MESSAGE, message: "x" })}`);
    expect(notesFailureMessage(failure)).toBe("Notes are limited to 250 words.");
  });

  it("falls back to 'Failed to update notes' without an error field", () => {
    expect(notesFailureMessage(new Error('401: {"message":"Unauthorized - Please log in"}'))).toBe(
      NOTES_TEXT.failedFallback,
    );
    expect(notesFailureMessage(new Error("502: Bad Gateway"))).toBe("Failed to update notes");
    expect(notesFailureMessage(new TypeError("Failed to fetch"))).toBe("Failed to update notes");
    expect(notesFailureMessage("boom")).toBe("Failed to update notes");
  });
});
