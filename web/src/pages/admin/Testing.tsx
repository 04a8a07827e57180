import { LaterRelease } from "../../components/LaterRelease";

/** Testing Tools (spec §2); its content comes in a later release. */
export function TestingPage() {
  return <LaterRelease title="Testing Tools" />;
}
