import { useEffect, useRef } from "react";
import { useLocation } from "react-router-dom";

/** How long after a navigation the new page's heading is waited for (lazy pages load meanwhile). */
export const HEADING_WAIT_MS = 10_000;

/** The document title of a page: "{page} – {brand} Portal". */
export function documentTitle(page: string, brand: string): string {
  return `${page} – ${brand} Portal`;
}

/** Sets the document title while the calling page is shown (WCAG 2.4.2: each page its own title). */
export function useDocumentTitle(page: string, brand: string): void {
  useEffect(() => {
    document.title = documentTitle(page, brand);
  }, [page, brand]);
}

/** The page's main heading inside `main`: its first h1 that is not part of a dialog. */
export function pageHeading(main: ParentNode): HTMLElement | null {
  for (const heading of main.querySelectorAll<HTMLElement>("h1")) {
    if (!heading.closest('[role="dialog"], [role="alertdialog"]')) return heading;
  }
  return null;
}

function focusLost(): boolean {
  const active = document.activeElement;
  return active === null || active === document.body;
}

/**
 * After a client-side navigation that left focus nowhere (the form that had it went away, as when
 * signing in), moves focus to the new page's heading once it shows, so keyboard and screen-reader
 * users start on the new page. Focus someone placed meanwhile is left alone; the first page load
 * is left alone too.
 */
export function useFocusHeadingAfterNavigation(mainRef: { readonly current: HTMLElement | null }): void {
  const { pathname } = useLocation();
  const shown = useRef(pathname);
  useEffect(() => {
    if (shown.current === pathname) return;
    shown.current = pathname;
    const main = mainRef.current;
    if (!main) return;
    const tryFocus = (): boolean => {
      const heading = pageHeading(main);
      if (!heading) return false;
      if (focusLost()) {
        if (!heading.hasAttribute("tabindex")) heading.tabIndex = -1;
        heading.focus();
      }
      return true;
    };
    if (tryFocus()) return;
    const observer = new MutationObserver(() => {
      if (tryFocus()) stop();
    });
    const timer = window.setTimeout(() => stop(), HEADING_WAIT_MS);
    const stop = () => {
      observer.disconnect();
      window.clearTimeout(timer);
    };
    observer.observe(main, { childList: true, subtree: true });
    return stop;
  }, [pathname, mainRef]);
}
