import { useCallback, useSyncExternalStore } from "react";
import { type PreferenceKey, readPreference, subscribePreferences, writePreference } from "./preferences";

/** The current value of the preference `key` (null when unset) and its setter; re-renders on change. */
export function usePreference(key: PreferenceKey): [string | null, (value: string | null) => void] {
  const value = useSyncExternalStore(
    subscribePreferences,
    () => readPreference(key),
    () => null,
  );
  const set = useCallback((next: string | null) => writePreference(key, next), [key]);
  return [value, set];
}
