import { topBarLinks, userMenuItems } from "./topBarLinks";

const labels = (user: Parameters<typeof topBarLinks>[0]) => topBarLinks(user).map((link) => link.label);

describe("topBarLinks", () => {
  it("shows a signed-out visitor only Pro App Features and Login / Register", () => {
    expect(topBarLinks(null)).toEqual([
      { to: "/pro-app-features", label: "Pro App Features" },
      { to: "/auth", label: "Login / Register" },
    ]);
  });

  it("shows a client the dashboard but no admin link and no login link", () => {
    expect(labels({ firstName: "Ada", userType: "client" })).toEqual(["Dashboard", "Pro App Features"]);
  });

  it("shows both kinds of admin the Admin Dashboard link to /admin", () => {
    for (const userType of ["mainAdmin", "userAdmin"] as const) {
      expect(topBarLinks({ firstName: "Grace", userType })).toContainEqual({
        to: "/admin",
        label: "Admin Dashboard",
      });
    }
    expect(labels({ firstName: "Pat", userType: "prospect" })).not.toContain("Admin Dashboard");
  });
});

describe("userMenuItems", () => {
  it("offers two-factor sign-in, the security questions, a password change and logout, in that order", () => {
    expect(userMenuItems()).toEqual([
      { label: "Two-factor sign-in", to: "/two-factor" },
      { label: "Security questions", to: "/auth?mode=security-questions" },
      { label: "Change password", to: "/auth?mode=change-password" },
      { label: "Logout", action: "logout" },
    ]);
  });
});
