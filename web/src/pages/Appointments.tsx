import { LaterRelease } from "../components/LaterRelease";

/** Appointments (spec §2); its content comes in a later release. */
export function AppointmentsPage() {
  return <LaterRelease title="Appointments" />;
}
