import { useEffect, useRef } from "react";

/** The keys of a key press the palette's shortcut looks at. */
export type ShortcutKeys = Pick<KeyboardEvent, "key" | "ctrlKey" | "metaKey" | "altKey" | "shiftKey">;

/** Whether `event` is the palette's shortcut: Ctrl+K, or ⌘K on macOS (without Alt or Shift). */
export function isPaletteShortcut(event: ShortcutKeys): boolean {
  return (
    event.key.toLowerCase() === "k" && (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey
  );
}

/**
 * Calls `onPress` when the palette's shortcut is pressed anywhere on the page while `enabled`; the
 * browser's own use of the keys (its address bar's search) is prevented. Listens before the page's
 * own handlers (capture), so that a focused editor does not keep the keys.
 */
export function usePaletteShortcut(enabled: boolean, onPress: () => void): void {
  const latest = useRef(onPress);
  latest.current = onPress;
  useEffect(() => {
    if (!enabled) return;
    const handleKeyDown = (event: KeyboardEvent) => {
      if (event.isComposing || !isPaletteShortcut(event)) return;
      event.preventDefault();
      latest.current();
    };
    window.addEventListener("keydown", handleKeyDown, true);
    return () => window.removeEventListener("keydown", handleKeyDown, true);
  }, [enabled]);
}
