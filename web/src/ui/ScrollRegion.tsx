import type { ReactNode } from "react";

/** Props of a scrolling region. */
export interface ScrollRegionProps {
  /** what it holds, read by screen readers */
  label: string;
  className: string;
  children: ReactNode;
}

/**
 * A box whose content may overflow (a wide table at 375 px, a long payload) and that holds nothing
 * focusable: it takes focus itself so the keyboard can scroll it (WCAG 2.1.1).
 */
export function ScrollRegion({ label, className, children }: ScrollRegionProps) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region with nothing focusable inside must take focus to be scrolled by keyboard
    <section className={className} aria-label={label} tabIndex={0}>
      {children}
    </section>
  );
}
