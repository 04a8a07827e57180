// Choices a person makes once per browser (the theme, a folded admin navigation), kept in
// localStorage. A browser that refuses storage (private mode, a full quota) still works: the
// choice then lasts until the page is left.

/** Names of the preferences the web app keeps, in one place. */
export const PREFERENCE_KEYS = {
  theme: "portal.theme",
  adminNavCollapsed: "portal.adminNav.collapsed",
  userFiltersHidden: "portal.users.filtersHidden",
} as const;

export type PreferenceKey = (typeof PREFERENCE_KEYS)[keyof typeof PREFERENCE_KEYS];

const memory = new Map<string, string>();
const listeners = new Set<() => void>();

function storage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    return null;
  }
}

/** The stored value of `key`, or null when none was stored (or storage cannot be read). */
export function readPreference(key: PreferenceKey): string | null {
  try {
    return storage()?.getItem(key) ?? memory.get(key) ?? null;
  } catch {
    return memory.get(key) ?? null;
  }
}

/** Stores `value` under `key` (null removes it) and tells every {@link usePreference} of this tab. */
export function writePreference(key: PreferenceKey, value: string | null): void {
  if (value === null) memory.delete(key);
  else memory.set(key, value);
  try {
    if (value === null) storage()?.removeItem(key);
    else storage()?.setItem(key, value);
  } catch {
    // refused or full: the in-memory copy serves this page
  }
  for (const listener of listeners) listener();
}

/**
 * Calls `onChange` when a preference changes, in this tab or (through the storage event) in another
 * tab of the same browser; returns the unsubscribe function.
 */
export function subscribePreferences(onChange: () => void): () => void {
  listeners.add(onChange);
  window.addEventListener("storage", onChange);
  return () => {
    listeners.delete(onChange);
    window.removeEventListener("storage", onChange);
  };
}
