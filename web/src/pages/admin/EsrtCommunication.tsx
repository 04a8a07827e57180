import { LaterRelease } from "../../components/LaterRelease";

/** ESRT Communication (spec §2); its content comes in a later release. */
export function EsrtCommunicationPage() {
  return <LaterRelease title="ESRT Communication" />;
}
