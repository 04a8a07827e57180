import "@web/features/console/console.css";
import { AnchorButton, Callout, Classes, H1, H3, Intent } from "@blueprintjs/core";
import { Envelope, Phone } from "@blueprintjs/icons";
import { useConsultationContact } from "@web/features/console/consoleUser";
import { Link } from "react-router-dom";

/**
 * /prospect-landing (spec §2): where prospects land from client-only pages. It says why the page
 * was closed to them and how to become a client.
 */
export function ProspectLandingPage() {
  const contact = useConsultationContact();
  return (
    <section className="portal-page">
      <H1>Client access required</H1>
      <Callout intent={Intent.PRIMARY} title="This feature is for clients">
        Documents and appointment management are available once your account has client access.
      </Callout>
      <H3 className="portal-page-after-callout">How to get client access</H3>
      <ol className={Classes.LIST}>
        <li>Contact our team by phone or email, or leave a note from your dashboard's Notes tab.</li>
        <li>Book a free consultation: we review your receivables and the services that fit.</li>
        <li>Once you become a client, an administrator upgrades your account and these features open.</li>
      </ol>
      <div className="portal-actions">
        <AnchorButton
          href={`mailto:${contact.email}?subject=${encodeURIComponent("Client access")}`}
          intent={Intent.PRIMARY}
          icon={<Envelope />}
          text="Email the team"
        />
        <AnchorButton
          href={`tel:${contact.phone.replace(/[^\d+]/g, "")}`}
          icon={<Phone />}
          text={`Call ${contact.phone}`}
        />
        <Link className={Classes.BUTTON} to="/dashboard">
          Back to Dashboard
        </Link>
      </div>
      <p className={`${Classes.TEXT_MUTED} portal-page-after-callout`}>
        Business hours: {contact.businessHours}.
      </p>
    </section>
  );
}
