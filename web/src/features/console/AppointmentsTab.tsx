import { Card, Classes, H3 } from "@blueprintjs/core";
import { Envelope, Phone, Time } from "@blueprintjs/icons";
import { AppointmentsPanel } from "@web/features/appointments/AppointmentsPanel";
import { useConsultationContact } from "./consoleUser";

/** Props of the console's Appointments tab. */
export interface AppointmentsTabProps {
  preview: boolean;
}

/** How to reach the consultation team: phone, email and business hours, from the branding. */
export function ContactDetails() {
  const contact = useConsultationContact();
  return (
    <Card className="console-contact" compact>
      <H3>Book a consultation</H3>
      <ul className={`${Classes.LIST_UNSTYLED} console-contact-list`}>
        <li>
          <Phone /> <span>Phone: </span>
          <a href={`tel:${contact.phone.replace(/[^\d+]/g, "")}`}>{contact.phone}</a>
        </li>
        <li>
          <Envelope /> <span>Email: </span>
          <a href={`mailto:${contact.email}`}>{contact.email}</a>
        </li>
        <li>
          <Time /> <span>Business hours: {contact.businessHours}</span>
        </li>
      </ul>
    </Card>
  );
}

/**
 * The Appointments tab (spec §2): the scheduling form with the 'why schedule' side card and the
 * user's appointments; the preview shows only how to reach the team.
 */
export function AppointmentsTab({ preview }: AppointmentsTabProps) {
  if (preview) return <ContactDetails />;
  return <AppointmentsPanel aside={<ContactDetails />} />;
}
