import { LaterRelease } from "../../components/LaterRelease";

/** Documentation (spec §2); its content comes in a later release. */
export function DocumentationPage() {
  return <LaterRelease title="Documentation" />;
}
