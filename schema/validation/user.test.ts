import { issueMessages, VALID_REGISTRATION } from "./testing";
import { countWords, loginSchema, notesSchema, registrationSchema, securityQuestionsSchema } from "./user";

describe("registrationSchema", () => {
  it("accepts a valid registration, normalising the email and defaulting to prospect", () => {
    const parsed = registrationSchema.parse({ ...VALID_REGISTRATION, phone: "", companyName: " " });
    expect(parsed).toMatchObject({ email: "j.doe@example.com", userType: "prospect" });
    expect(parsed.phone).toBeUndefined();
    expect(parsed.companyName).toBeUndefined();
  });

  it.each([
    [{ username: "jd" }, "Username must be at least 3 characters"],
    [{ username: "x".repeat(51) }, "Username must be less than 50 characters"],
    [{ email: "not-an-email" }, "Please enter a valid email address"],
    [{ password: "s3c-x" }, "Password must be at least 8 characters"],
    [{ password: "secret-pass" }, "Password must contain at least one number"],
    [{ password: "s3cretpass" }, "Password must contain at least one special character"],
    [{ firstName: " " }, "First name is required"],
    [{ lastName: "" }, "Last name is required"],
    [{ phone: "12345" }, "Please enter a valid phone number"],
    [{ phone: "call me maybe" }, "Please enter a valid phone number"],
  ])("refuses %j with the spec's message", (override, message) => {
    expect(issueMessages(registrationSchema.safeParse({ ...VALID_REGISTRATION, ...override }))).toContain(
      message,
    );
  });

  it("accepts the phone formats of the spec: leading plus, digits, spaces, dashes and brackets", () => {
    for (const phone of ["+1 (555) 010-0100", "5550100100", "+44 20 7946 0958"]) {
      expect(registrationSchema.safeParse({ ...VALID_REGISTRATION, phone }).success).toBe(true);
    }
  });
});

describe("loginSchema", () => {
  it("requires a login and a password", () => {
    expect(issueMessages(loginSchema.safeParse({ login: " ", password: "" }))).toEqual([
      "Username or email is required",
      "Password is required",
    ]);
  });
});

describe("notes", () => {
  it("counts words as runs of non-space characters", () => {
    expect(countWords("")).toBe(0);
    expect(countWords("  one\ttwo\n three  ")).toBe(3);
  });

  it("allows 250 words and refuses 251 with the spec's message", () => {
    expect(notesSchema.safeParse({ notes: Array(250).fill("w").join(" ") }).success).toBe(true);
    expect(issueMessages(notesSchema.safeParse({ notes: Array(251).fill("w").join(" ") }))).toEqual([
      "Notes are limited to 250 words.",
    ]);
  });
});

describe("securityQuestionsSchema", () => {
  const q = (question: string, answer: string) => ({ question, answer });
  it("needs three different questions of 5+ characters with answers of 2+", () => {
    const ok = {
      userId: 1,
      questions: [q("First pet?", "Rex"), q("Home town?", "Lyon"), q("Best friend?", "Al")],
    };
    expect(securityQuestionsSchema.safeParse(ok).success).toBe(true);
    expect(
      issueMessages(
        securityQuestionsSchema.safeParse({ ...ok, questions: [q("Pet?", "R"), ...ok.questions.slice(1)] }),
      ),
    ).toEqual(["Each question must be at least 5 characters", "Each answer must be at least 2 characters"]);
    expect(
      issueMessages(
        securityQuestionsSchema.safeParse({
          ...ok,
          questions: [ok.questions[0], ok.questions[0], ok.questions[1]],
        }),
      ),
    ).toEqual(["Each security question must be different"]);
  });
});
