import { LaterRelease } from "../../components/LaterRelease";

/** Storage Settings (spec §2); its content comes in a later release. */
export function StoragePage() {
  return <LaterRelease title="Storage Settings" />;
}
