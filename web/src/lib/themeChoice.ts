import { PREFERENCE_KEYS } from "./preferences";
import { parseThemeChoice, type ThemeChoice } from "./theme";
import { usePreference } from "./usePreference";

// The user menu's half of the theme (issue 21), apart from theme.ts, which main.tsx loads with the
// first page: the menu and its choices load with the menu.

/** The choices in the order the user menu lists them, with their labels. */
export const THEME_CHOICES: readonly { value: ThemeChoice; label: string }[] = [
  { value: "light", label: "Light" },
  { value: "dark", label: "Dark" },
  { value: "system", label: "System" },
];

/** The stored theme choice and its setter, for the user menu. */
export function useThemeChoice(): [ThemeChoice, (choice: ThemeChoice) => void] {
  const [stored, store] = usePreference(PREFERENCE_KEYS.theme);
  // "system" is the default: it is stored by removing the choice
  return [parseThemeChoice(stored), (choice) => store(choice === "system" ? null : choice)];
}
