import { LaterRelease } from "../../components/LaterRelease";

/** Email Templates (spec §2); its content comes in a later release. */
export function EmailTemplatesPage() {
  return <LaterRelease title="Email Templates" />;
}
