import { LaterRelease } from "../components/LaterRelease";

/** Documents (spec §2); its content comes in a later release. */
export function DocumentsPage() {
  return <LaterRelease title="Documents" />;
}
