import { LaterRelease } from "../../components/LaterRelease";

/** Email Testing (spec §2); its content comes in a later release. */
export function EmailTestingPage() {
  return <LaterRelease title="Email Testing" />;
}
