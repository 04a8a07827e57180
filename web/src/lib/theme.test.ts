import { isDarkTheme, parseThemeChoice } from "./theme";
import { THEME_CHOICES } from "./themeChoice";

describe("the theme choice", () => {
  it("offers Light, Dark and System, in that order", () => {
    expect(THEME_CHOICES.map((c) => c.label)).toEqual(["Light", "Dark", "System"]);
  });

  it("reads anything stored but light or dark (nothing included) as System", () => {
    expect(parseThemeChoice("light")).toBe("light");
    expect(parseThemeChoice("dark")).toBe("dark");
    expect(parseThemeChoice(null)).toBe("system");
    expect(parseThemeChoice("purple")).toBe("system");
  });

  it("is dark when chosen, or with System when the operating system prefers dark", () => {
    expect(isDarkTheme("dark", false)).toBe(true);
    expect(isDarkTheme("light", true)).toBe(false);
    expect(isDarkTheme("system", true)).toBe(true);
    expect(isDarkTheme("system", false)).toBe(false);
  });
});
