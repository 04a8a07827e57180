import { Classes, H2, Intent, Tag } from "@blueprintjs/core";
import { TickCircle } from "@blueprintjs/icons";
import { FactsTable } from "@web/ui/FactsTable";
import type { ConsoleUser } from "./consoleUser";
import { ProAppButton } from "./ProAppButton";
import { ProAppQr } from "./QrCode";

/** Props of the console's Welcome tab. */
export interface WelcomeTabProps {
  user: ConsoleUser;
  /** `{proAppUrl}/user/{uniqueId}` */
  proAppLink: string;
}

/** The Welcome tab (spec §2): greeting, the user's details, and the ways into the Pro app. */
export function WelcomeTab({ user, proAppLink }: WelcomeTabProps) {
  const details: [string, string][] = [
    ["UserID", user.uniqueId],
    ["Name", `${user.firstName} ${user.lastName}`],
    ["Company", user.companyName ?? "Not given"],
    ["Email", user.email],
    ["Phone", user.phone ?? "Not given"],
  ];
  return (
    <div className="console-welcome">
      <div className="console-welcome-details">
        <H2>Welcome, {user.firstName}!</H2>
        {user.esrtSynced ? (
          <Tag intent={Intent.SUCCESS} icon={<TickCircle />} large className="console-synced">
            Synced with ESRT Pro
          </Tag>
        ) : null}
        <FactsTable rows={details} className="console-details" label="Your details" />
        <p className={Classes.TEXT_MUTED}>
          Save your portal credentials: you sign in to the client application, ESRT Pro, with the same ones.
        </p>
        <ProAppButton href={proAppLink} text="Launch ESRT Pro" />
      </div>
      <ProAppQr link={proAppLink} />
    </div>
  );
}
