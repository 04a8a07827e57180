import {
  DEFAULT_SUPPORT_PHONE,
  loginFailureMessage,
  notesFailureMessage,
  parseApiError,
  serverMessage,
} from "./apiErrors";

const failed = (status: number, body: unknown) =>
  new Error(`${status}: ${typeof body === "string" ? body : JSON.stringify(body)}`);

describe("parseApiError", () => {
  it("gives nothing for an error that is not an answer of the server", () => {
    expect(parseApiError(new TypeError("Failed to fetch"))).toBeNull();
    expect(parseApiError("401: text")).toBeNull();
  });

  it("keeps the status and the text when the body is not JSON", () => {
    expect(parseApiError(new Error("502: Bad Gateway"))).toEqual({
      status: 502,
      text: "Bad Gateway",
      body: null,
    });
  });

  it("reads the JSON error body", () => {
    expect(parseApiError(failed(409, { message: "Username already taken" }))?.body).toEqual({
      message: "Username already taken",
    });
  });
});

describe("loginFailureMessage (spec §8, 'Login failed')", () => {
  it("names the account status and the support phone for a 403 with a status", () => {
    expect(loginFailureMessage(failed(403, { status: "deactivated", message: "x" }), "(555) 222-3333")).toBe(
      "This account has been deactivated. Please contact support at (555) 222-3333 for assistance.",
    );
    expect(loginFailureMessage(failed(403, { status: "archived", message: "x" }))).toBe(
      `This account has been archived. Please contact support at ${DEFAULT_SUPPORT_PHONE} for assistance.`,
    );
  });

  it("keeps the server's wording of the status message, which carries the branding's phone", () => {
    const message =
      "This account has been archived. Please contact support at +1 555 777 8888 for assistance.";
    expect(loginFailureMessage(failed(403, { status: "archived", message }))).toBe(message);
    expect(loginFailureMessage(failed(403, { status: "archived", message: "Account archived" }))).toBe(
      `This account has been archived. Please contact support at ${DEFAULT_SUPPORT_PHONE} for assistance.`,
    );
  });

  it("says the account was not found for a 404", () => {
    expect(loginFailureMessage(failed(404, { message: "Account not found" }))).toBe(
      "Account not found. Please check your login credentials or register.",
    );
  });

  it("asks to verify the email for a 403 with needsVerification", () => {
    expect(
      loginFailureMessage(
        failed(403, { needsVerification: true, message: "Please verify your email before logging in." }),
      ),
    ).toBe("Please verify your email before logging in. Check your inbox for the verification link.");
  });

  it("shows the server's message otherwise, else 'Invalid login credentials'", () => {
    expect(
      loginFailureMessage(failed(429, { message: "Too many attempts. Please try again in 8 seconds." })),
    ).toBe("Too many attempts. Please try again in 8 seconds.");
    expect(loginFailureMessage(failed(401, { message: "Invalid login credentials" }))).toBe(
      "Invalid login credentials",
    );
    expect(loginFailureMessage(failed(500, "Internal Server Error"))).toBe("Invalid login credentials");
    expect(loginFailureMessage(failed(403, { message: "" }))).toBe("Invalid login credentials");
    expect(loginFailureMessage(new TypeError("Failed to fetch"))).toBe("Invalid login credentials");
  });
});

describe("serverMessage and notesFailureMessage", () => {
  it("prefer the server's words and fall back to the spec's", () => {
    expect(serverMessage(failed(409, { message: "Email already registered" }), "Registration failed")).toBe(
      "Email already registered",
    );
    expect(serverMessage(failed(500, "oops"), "Registration failed")).toBe("Registration failed");
    expect(notesFailureMessage(failed(400, { error: "Notes are limited to 250 words.", message: "m" }))).toBe(
      "Notes are limited to 250 words.",
    );
    expect(notesFailureMessage(failed(500, "Internal Server Error"))).toBe("Failed to update notes");
  });
});
