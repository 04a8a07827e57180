import { Callout, Card, Classes, H3, Intent } from "@blueprintjs/core";
import { Calendar, Envelope, Phone, Time } from "@blueprintjs/icons";
import { useConsultationContact } from "./consoleUser";

/** Props of the console's Appointments tab. */
export interface AppointmentsTabProps {
  preview: boolean;
}

/** How to reach the consultation team: phone, email and business hours, from the branding. */
function ContactDetails() {
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
 * The Appointments tab (spec §2). The preview shows only how to reach the team; for a signed-in user
 * the scheduling form belongs to the appointments release, which the tab says honestly.
 */
export function AppointmentsTab({ preview }: AppointmentsTabProps) {
  if (preview) return <ContactDetails />;
  return (
    <div className="console-appointments">
      <Callout intent={Intent.PRIMARY} icon={<Calendar />} title="Scheduling arrives in a later release">
        Booking a consultation from the console is part of a later release. Until then, call or email our
        consultation team.
      </Callout>
      <ContactDetails />
    </div>
  );
}
