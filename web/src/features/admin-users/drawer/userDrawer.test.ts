import { fieldOfMessage, formatWhen, mayManage, twoFactorSummary, USER_TYPE_LABELS } from "./userDrawer";

describe("the user drawer's rules", () => {
  it("lets an administrator manage an account only of a type they may grant", () => {
    const userAdmin = ["prospect", "user", "client"] as const;
    expect(mayManage("client", userAdmin)).toBe(true);
    expect(mayManage("mainAdmin", userAdmin)).toBe(false);
    expect(mayManage("userAdmin", userAdmin)).toBe(false);
    expect(mayManage("mainAdmin", [...userAdmin, "userAdmin", "mainAdmin"])).toBe(true);
    expect(mayManage("client", [])).toBe(false);
  });

  it("puts each server refusal at its field, in the registration's words", () => {
    expect(fieldOfMessage("Username already taken")).toBe("username");
    expect(fieldOfMessage("Username must be at least 3 characters")).toBe("username");
    expect(fieldOfMessage("Email already registered")).toBe("email");
    expect(fieldOfMessage("Please enter a valid email address")).toBe("email");
    expect(fieldOfMessage("First name is required")).toBe("firstName");
    expect(fieldOfMessage("Last name must be at most 100 characters")).toBe("lastName");
    expect(fieldOfMessage("Please enter a valid phone number")).toBe("phone");
    expect(fieldOfMessage("Company name must be at most 200 characters")).toBe("companyName");
    expect(fieldOfMessage("You cannot manage your own account here")).toBeNull();
  });

  it("names every type and shows missing dates as Never", () => {
    expect(Object.keys(USER_TYPE_LABELS).sort()).toEqual([
      "client",
      "mainAdmin",
      "prospect",
      "user",
      "userAdmin",
    ]);
    expect(formatWhen(null)).toBe("Never");
    expect(formatWhen("not a date", "—")).toBe("—");
    expect(formatWhen("2026-01-02T10:00:00Z")).toMatch(/2026/);
  });

  it("says what second factors a user holds, or that the password alone signs them in", () => {
    const off = { enabled: false, authenticator: false, passkeys: 0, recoveryCodesLeft: 0 };
    expect(twoFactorSummary(off)).toBe("Password only");
    expect(twoFactorSummary({ enabled: true, authenticator: true, passkeys: 0, recoveryCodesLeft: 10 })).toBe(
      "Authenticator app, 10 recovery codes left",
    );
    expect(twoFactorSummary({ enabled: true, authenticator: true, passkeys: 2, recoveryCodesLeft: 1 })).toBe(
      "Authenticator app, 2 passkeys, 1 recovery code left",
    );
    expect(twoFactorSummary({ enabled: true, authenticator: false, passkeys: 1, recoveryCodesLeft: 0 })).toBe(
      "1 passkey, 0 recovery codes left",
    );
  });
});
