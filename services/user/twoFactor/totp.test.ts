import { Secret } from "otpauth";
import { matchTotpStep, newTotpSecret, TOTP_PERIOD_SECONDS, totpCodeAt, totpStepAt, totpUri } from "./totp";

// RFC 6238's codes, the window of one step either side, and what is never a code.

const STEP_MS = TOTP_PERIOD_SECONDS * 1000;
// RFC 6238 appendix B's SHA-1 seed, "12345678901234567890", as base32
const RFC_SECRET = Secret.fromLatin1("12345678901234567890").base32;

describe("time-based one-time codes", () => {
  it("computes RFC 6238's test vectors (the last six of its eight digits)", () => {
    expect(totpCodeAt(RFC_SECRET, 59_000)).toBe("287082");
    expect(totpCodeAt(RFC_SECRET, 1_111_111_109_000)).toBe("081804");
    expect(totpCodeAt(RFC_SECRET, 1_234_567_890_000)).toBe("005924");
    expect(totpCodeAt(RFC_SECRET, 2_000_000_000_000)).toBe("279037");
  });

  it("accepts a code of the current step and of the steps either side, and names the step it matched", () => {
    const secret = newTotpSecret();
    const now = 1_800_000_000_000;
    const step = totpStepAt(now);
    expect(matchTotpStep(secret, totpCodeAt(secret, now), now)).toBe(step);
    expect(matchTotpStep(secret, totpCodeAt(secret, now - STEP_MS), now)).toBe(step - 1);
    expect(matchTotpStep(secret, totpCodeAt(secret, now + STEP_MS), now)).toBe(step + 1);
  });

  it("refuses codes two steps away, another secret's codes and anything that is not six digits", () => {
    const secret = newTotpSecret();
    const now = 1_800_000_000_000;
    expect(matchTotpStep(secret, totpCodeAt(secret, now - 2 * STEP_MS), now)).toBeNull();
    expect(matchTotpStep(secret, totpCodeAt(secret, now + 2 * STEP_MS), now)).toBeNull();
    expect(matchTotpStep(secret, totpCodeAt(newTotpSecret(), now), now)).toBeNull();
    for (const code of ["", "12345", "1234567", "12a456", "１２３４５６", "123456\u0000"]) {
      expect(matchTotpStep(secret, code, now)).toBeNull();
    }
  });

  it("takes a code typed with spaces, as apps show it", () => {
    const secret = newTotpSecret();
    const now = 1_800_000_000_000;
    const code = totpCodeAt(secret, now);
    expect(matchTotpStep(secret, `${code.slice(0, 3)} ${code.slice(3)}`, now)).toBe(totpStepAt(now));
  });

  it("makes 160-bit secrets and an otpauth URI apps can scan", () => {
    const secret = newTotpSecret();
    expect(Secret.fromBase32(secret).bytes).toHaveLength(20);
    expect(newTotpSecret()).not.toBe(secret);
    const uri = new URL(totpUri({ secret, issuer: "ESRT Portal", account: "ada@example.test" }));
    expect(uri.protocol).toBe("otpauth:");
    expect(uri.host).toBe("totp");
    expect(decodeURIComponent(uri.pathname)).toBe("/ESRT Portal:ada@example.test");
    expect(Object.fromEntries(uri.searchParams)).toMatchObject({
      secret,
      issuer: "ESRT Portal",
      algorithm: "SHA1",
      digits: "6",
      period: "30",
    });
  });
});
