import { rolePermissions } from "@schema/api/permissions";
import { adminPages, matchPages, resultsSentence, userDrawerPath } from "./paletteItems";

// The command palette's pages and sentences (issue 21): which admin pages each admin may open, how
// typing finds them, and what the live region says.

const ALL = rolePermissions.mainAdmin;
const USER_ADMIN = rolePermissions.userAdmin;

const titles = (pages: { title: string }[]) => pages.map((p) => p.title);

describe("adminPages", () => {
  it("gives a mainAdmin every admin page, the Admin Dashboard first, and the role switcher outside production", () => {
    const pages = adminPages({ userType: "mainAdmin", permissions: ALL }, { roleSwitcher: true });
    expect(titles(pages)).toEqual([
      "Admin Dashboard",
      "User Management",
      "Storage Settings",
      "Branding Settings",
      "Security Settings",
      "Testing Tools",
      "Documentation",
      "ESRT Communication",
      "Email Templates",
      "Email Settings",
      "Email Testing",
      "Appointment Administration",
      "Role Switcher",
    ]);
    expect(
      adminPages({ userType: "mainAdmin", permissions: ALL }, { roleSwitcher: false }).at(-1)?.title,
    ).toBe("Appointment Administration");
  });

  it("gives a userAdmin only the pages their permissions open, and nobody else any", () => {
    const pages = adminPages({ userType: "userAdmin", permissions: USER_ADMIN }, { roleSwitcher: true });
    expect(titles(pages)).toEqual([
      "Admin Dashboard",
      "User Management",
      "Documentation",
      "ESRT Communication",
      "Appointment Administration",
    ]);
    for (const userType of ["client", "prospect", "user"] as const) {
      expect(adminPages({ userType, permissions: ALL }, { roleSwitcher: true })).toEqual([]);
    }
  });
});

describe("matchPages", () => {
  const pages = adminPages({ userType: "mainAdmin", permissions: ALL }, { roleSwitcher: true });

  it("keeps every page for an empty query", () => {
    expect(matchPages(pages, "  ")).toHaveLength(pages.length);
  });

  it("finds pages by their title's start first, case and accents ignored", () => {
    expect(titles(matchPages(pages, "email")).slice(0, 3)).toEqual([
      "Email Templates",
      "Email Settings",
      "Email Testing",
    ]);
    expect(titles(matchPages(pages, "SÉCURITY"))[0]).toBe("Security Settings");
    expect(titles(matchPages(pages, "em set"))).toEqual(["Email Settings"]);
  });

  it("finds pages by other words and by their path", () => {
    expect(titles(matchPages(pages, "users"))[0]).toBe("User Management");
    expect(titles(matchPages(pages, "smtp"))).toEqual(["Email Settings"]);
    expect(titles(matchPages(pages, "esrt-comm"))).toEqual(["ESRT Communication"]);
    expect(titles(matchPages(pages, "appointments"))).toContain("Appointment Administration");
    expect(matchPages(pages, "zzz")).toEqual([]);
  });
});

describe("resultsSentence", () => {
  const base = { query: "", pages: 12, users: 0, searching: false, findsUsers: true, problem: null };

  it("says what matches, that users are being searched, or that nothing does", () => {
    expect(resultsSentence(base)).toBe("12 pages. Type to filter, or to find a user.");
    expect(resultsSentence({ ...base, query: "a", pages: 1 })).toBe(
      "1 page. Type 2 or more characters to find users.",
    );
    expect(resultsSentence({ ...base, query: "ann", pages: 0, searching: true })).toBe(
      "0 pages; searching users…",
    );
    expect(resultsSentence({ ...base, query: "ann", pages: 0, users: 1 })).toBe("0 pages and 1 user.");
    expect(resultsSentence({ ...base, query: "qqq", pages: 0 })).toBe("No page or user matches “qqq”.");
    expect(resultsSentence({ ...base, query: "ann", pages: 1, problem: "Failed to fetch" })).toBe(
      "1 page; users could not be searched.",
    );
    expect(resultsSentence({ ...base, query: "qqq", pages: 0, findsUsers: false })).toBe(
      "No page matches “qqq”.",
    );
  });

  it("opens a user in User Management's drawer", () => {
    expect(userDrawerPath(42)).toBe("/admin/user-management?user=42");
  });
});
