import { Classes, H1, Intent } from "@blueprintjs/core";
import { useServerConfig } from "@web/data/rest";
import { ProAppButton } from "@web/features/console/ProAppButton";
import { Link } from "react-router-dom";

/** The public home page: what the portal is for and where to go next. */
export function HomePage() {
  const { config } = useServerConfig();
  return (
    <section className="portal-page">
      <H1>Client portal</H1>
      <p className={Classes.RUNNING_TEXT}>
        After registration you can submit documents, access reports and update correspondence with our team.
        Save your credentials for the client application, ESRT Pro.
      </p>
      <div className="portal-actions">
        <Link className={`${Classes.BUTTON} ${Classes.INTENT_PRIMARY}`} to="/auth">
          Login / Register
        </Link>
        <ProAppButton href={config.proAppUrl} intent={Intent.NONE} text="Open ESRT Pro" />
      </div>
    </section>
  );
}
