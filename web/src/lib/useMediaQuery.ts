import { useCallback, useSyncExternalStore } from "react";

/** Screens at least this wide are "large": full top bar, toasts at the bottom right (spec §2). */
export const LARGE_SCREEN_QUERY = "(min-width: 768px)";

/** Whether the CSS media query `query` matches now; re-renders when that changes. */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener("change", onChange);
      return () => list.removeEventListener("change", onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(query).matches,
    () => true,
  );
}
