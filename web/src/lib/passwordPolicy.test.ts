import { issueMessages, VALID_REGISTRATION } from "@schema/validation/testing";
import { registrationSchema } from "@schema/validation/user";
import { passwordHint, withPasswordMinimum } from "./passwordPolicy";

describe("the stored password minimum in the forms", () => {
  it("adds the minimum's message with the spec's words, once, over the spec's own rules", () => {
    const schema = withPasswordMinimum(registrationSchema, "password", 14);
    expect(issueMessages(schema.safeParse(VALID_REGISTRATION))).toEqual([
      "Password must be at least 14 characters",
    ]);
    expect(issueMessages(schema.safeParse({ ...VALID_REGISTRATION, password: "s3c-x" }))).toEqual([
      "Password must be at least 8 characters",
    ]);
    expect(schema.safeParse({ ...VALID_REGISTRATION, password: "s3cret-pass-long" }).success).toBe(true);
  });

  it("changes nothing at the spec's 8, and never goes below it", () => {
    expect(withPasswordMinimum(registrationSchema, "password", 8).safeParse(VALID_REGISTRATION).success).toBe(
      true,
    );
    expect(withPasswordMinimum(registrationSchema, "password", 4).safeParse(VALID_REGISTRATION).success).toBe(
      true,
    );
    expect(passwordHint(8)).toBeUndefined();
    expect(passwordHint(12)).toBe("At least 12 characters, with a number and a special character");
  });
});
