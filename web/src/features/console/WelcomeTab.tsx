import { AnchorButton, Classes, H2, HTMLTable, Intent, Tag } from "@blueprintjs/core";
import { Share, TickCircle } from "@blueprintjs/icons";
import type { ConsoleUser } from "./consoleUser";
import { QrCode } from "./QrCode";

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
        <HTMLTable compact className="console-details" aria-label="Your details">
          <tbody>
            {details.map(([label, value]) => (
              <tr key={label}>
                <th scope="row">{label}</th>
                <td>{value}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
        <p className={Classes.TEXT_MUTED}>
          Save your portal credentials: you sign in to the client application, ESRT Pro, with the same ones.
        </p>
        <AnchorButton
          href={proAppLink}
          target="_blank"
          rel="noopener noreferrer"
          intent={Intent.PRIMARY}
          endIcon={<Share />}
          text="Launch ESRT Pro"
        />
      </div>
      <figure className="console-qr-figure">
        <QrCode value={proAppLink} label={`QR code linking to ${proAppLink}`} />
        <figcaption className={Classes.TEXT_MUTED}>Scan to open ESRT Pro on your phone</figcaption>
      </figure>
    </div>
  );
}
