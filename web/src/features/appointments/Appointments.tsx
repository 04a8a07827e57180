import "@web/features/console/console.css";
import { H1 } from "@blueprintjs/core";
import { ContactDetails } from "@web/features/console/AppointmentsTab";
import { AppointmentsPanel } from "./AppointmentsPanel";

/** /appointments (spec §2, client-only): schedule a consultation and manage upcoming ones. */
export function AppointmentsPage() {
  return (
    <section className="portal-page">
      <H1>Appointments</H1>
      <AppointmentsPanel aside={<ContactDetails />} />
    </section>
  );
}
