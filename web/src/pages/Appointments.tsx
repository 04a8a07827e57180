import "../components/console/console.css";
import { H1 } from "@blueprintjs/core";
import { AppointmentsPanel } from "../components/appointments/AppointmentsPanel";
import { ContactDetails } from "../components/console/AppointmentsTab";

/** /appointments (spec §2, client-only): schedule a consultation and manage upcoming ones. */
export function AppointmentsPage() {
  return (
    <section className="portal-page">
      <H1>Appointments</H1>
      <AppointmentsPanel aside={<ContactDetails />} />
    </section>
  );
}
