import { LaterRelease } from "../../components/LaterRelease";

/** Appointment Administration (spec §2); its content comes in a later release. */
export function AdminAppointmentsPage() {
  return <LaterRelease title="Appointment Administration" />;
}
