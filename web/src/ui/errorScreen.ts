// What the error screens say (web/src/ui/ErrorBoundary.tsx), apart from React so it is tested alone.

/**
 * Messages browsers give when a lazily loaded chunk cannot be fetched: after a deploy the old
 * chunk's hashed file is gone (Chromium, Firefox, Safari, and Vite's CSS preload).
 */
const CHUNK_FAILURES = [
  /Failed to fetch dynamically imported module/i,
  /error loading dynamically imported module/i,
  /Importing a module script failed/i,
  /Unable to preload CSS/i,
];

/** Whether `error` is a page's code that failed to load (a dynamic import that rejected). */
export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const text = `${error.name}: ${error.message}`;
  return CHUNK_FAILURES.some((pattern) => pattern.test(text));
}

/** The line that names the request a report should quote: the last x-request-id, or "no request id". */
export function requestIdLine(requestId: string | undefined): string {
  return requestId ? `Request id: ${requestId}` : "no request id";
}

/** The title and text of the screen shown for `error`. */
export function errorScreenText(error: unknown): { title: string; description: string } {
  if (isChunkLoadError(error)) {
    return {
      title: "A new version of the portal is available",
      description: "The portal was updated. Reload to continue.",
    };
  }
  return {
    title: "Something went wrong",
    description: "This page could not be shown. Reload, or give support the request id.",
  };
}
