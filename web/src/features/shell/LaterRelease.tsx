import { H1 } from "@blueprintjs/core";

/** Props of a page whose content arrives in a later release. */
export interface LaterReleaseProps {
  title: string;
}

/** An honest stand-in: the page's name and a line saying it is not built yet. */
export function LaterRelease({ title }: LaterReleaseProps) {
  return (
    <section className="portal-page">
      <H1>{title}</H1>
      <p>This page is part of a later release.</p>
    </section>
  );
}
