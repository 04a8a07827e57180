import {
  asksForProof,
  PROOF_MARGIN_MS,
  passkeyFailureMessage,
  proofIsFresh,
  recoveryCodesText,
  suggestedPasskeyName,
  textFileHref,
} from "./twoFactor";

/** An error as the browser's WebAuthn (through @simplewebauthn/browser) throws it. */
function webAuthnError(name: string, code?: string): Error {
  const error = new Error("The operation either timed out or was not allowed.");
  error.name = name;
  if (code) Object.assign(error, { code });
  return error;
}

describe("two-factor sign-in on the web", () => {
  it("asks for a new proof of identity when none is held, or it ends within the margin", () => {
    const now = Date.parse("2031-03-08T12:00:00Z");
    expect(proofIsFresh(null, now)).toBe(false);
    expect(proofIsFresh(undefined, now)).toBe(false);
    expect(proofIsFresh("not a date", now)).toBe(false);
    expect(proofIsFresh(new Date(now + 4 * 60_000).toISOString(), now)).toBe(true);
    expect(proofIsFresh(new Date(now + PROOF_MARGIN_MS - 1).toISOString(), now)).toBe(false);
    expect(proofIsFresh(new Date(now - 1).toISOString(), now)).toBe(false);
  });

  it("reads a FORBIDDEN answer of a change as the server asking for a proof, and nothing else", () => {
    expect(asksForProof({ __typename: "AppError", code: "FORBIDDEN", message: "Confirm it's you" })).toBe(
      true,
    );
    expect(asksForProof({ __typename: "AppError", code: "CONFLICT", message: "Required" })).toBe(false);
    expect(asksForProof({ __typename: "MutationTurnOffTwoFactorSuccess" })).toBe(false);
    expect(asksForProof(undefined)).toBe(false);
  });

  it("writes the recovery codes as a text file, one a line, saying what they are for", () => {
    const text = recoveryCodesText({
      codes: ["abcd-efgh", "ijkl-mnop"],
      portal: "Receivables Portal",
      account: "ada@example.com",
      at: new Date("2031-03-08T12:00:00Z"),
    });
    const lines = text.split("\n");
    expect(lines[0]).toBe("Receivables Portal: recovery codes for ada@example.com");
    expect(lines[1]).toMatch(/^Made 2031-03-08\. Each code signs you in once/);
    expect(lines.slice(4, 6)).toEqual(["abcd-efgh", "ijkl-mnop"]);
    expect(decodeURIComponent(textFileHref(text).replace(/^data:text\/plain;charset=utf-8,/, ""))).toBe(text);
  });

  it("says in the portal's words why the browser gave no passkey", () => {
    expect(passkeyFailureMessage(webAuthnError("NotAllowedError"), "use")).toBe(
      "No passkey was used: the browser's prompt was closed or timed out.",
    );
    expect(passkeyFailureMessage(webAuthnError("AbortError", "ERROR_CEREMONY_ABORTED"), "add")).toBe(
      "No passkey was created: the browser's prompt was closed or timed out.",
    );
    expect(
      passkeyFailureMessage(
        webAuthnError("InvalidStateError", "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED"),
        "add",
      ),
    ).toBe("This passkey is already registered with your account.");
    expect(passkeyFailureMessage(webAuthnError("SecurityError", "ERROR_INVALID_DOMAIN"), "add")).toBe(
      "Passkeys work only on the portal's own address over HTTPS.",
    );
    expect(passkeyFailureMessage(new Error("boom"), "use")).toBe("The passkey could not be used.");
    expect(passkeyFailureMessage("not an error", "add")).toBe("The passkey could not be created.");
  });

  it("suggests a passkey name after the device's platform", () => {
    expect(suggestedPasskeyName("Windows")).toBe("Passkey on Windows");
    expect(suggestedPasskeyName("MacIntel")).toBe("Passkey on Mac");
    expect(suggestedPasskeyName("Linux x86_64")).toBe("Passkey on Linux");
    expect(suggestedPasskeyName(undefined)).toBe("Passkey");
  });
});
