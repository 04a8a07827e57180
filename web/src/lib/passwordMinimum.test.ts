import { SPEC_MIN_PASSWORD_LENGTH } from "@schema/validation/security";
import { passwordMinLength, SPEC_MINIMUM } from "./passwordMinimum";

describe("the password minimum", () => {
  it("is the shared schema's minimum", () => {
    expect(SPEC_MINIMUM).toBe(SPEC_MIN_PASSWORD_LENGTH);
  });

  it("takes the server's minimum, never below the spec's 8", () => {
    expect(passwordMinLength(undefined)).toBe(8);
    expect(passwordMinLength({ minLength: 6 })).toBe(8);
    expect(passwordMinLength({ minLength: 12 })).toBe(12);
  });
});
