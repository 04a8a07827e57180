import { LaterRelease } from "../../components/LaterRelease";

/** Security Settings (spec §2); its content comes in a later release. */
export function SecurityPage() {
  return <LaterRelease title="Security Settings" />;
}
