import { Intent, Spinner } from "@blueprintjs/core";
import type { ReactNode } from "react";
import { LoadErrorCallout } from "./LoadError";

/** Props of {@link SettingsLoad}. */
export interface SettingsLoadProps<T> {
  /** what is loaded, in words: "the branding", "the storage settings" */
  what: string;
  /** the settings, once loaded */
  settings: T | null | undefined;
  loading: boolean;
  error: Error | undefined;
  onRetry(): void;
  children(settings: T): ReactNode;
}

/**
 * The states of a settings page's one query: the failure with the server's message and "Try again"
 * (only while nothing was loaded), a spinner while loading, then the form for the settings.
 */
export function SettingsLoad<T>({ what, settings, loading, error, onRetry, children }: SettingsLoadProps<T>) {
  if (error && !settings) {
    return (
      <LoadErrorCallout
        intent={Intent.DANGER}
        title={`${what[0]?.toUpperCase()}${what.slice(1)} could not be loaded`}
        onRetry={onRetry}
      >
        {error.message}{" "}
      </LoadErrorCallout>
    );
  }
  if (loading && !settings) return <Spinner size={24} aria-label={`Loading ${what}`} />;
  return settings ? children(settings) : null;
}
