import { LaterRelease } from "../components/LaterRelease";

/** Pro App Features (spec §2); its content comes in a later release. */
export function ProAppFeaturesPage() {
  return <LaterRelease title="Pro App Features" />;
}
