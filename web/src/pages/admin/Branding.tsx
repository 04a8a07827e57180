import { LaterRelease } from "../../components/LaterRelease";

/** Branding Settings (spec §2); its content comes in a later release. */
export function BrandingPage() {
  return <LaterRelease title="Branding Settings" />;
}
