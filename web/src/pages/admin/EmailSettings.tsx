import { LaterRelease } from "../../components/LaterRelease";

/** Email Settings (spec §2); its content comes in a later release. */
export function EmailSettingsPage() {
  return <LaterRelease title="Email Settings" />;
}
