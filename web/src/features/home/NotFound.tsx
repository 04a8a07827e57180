import { Callout, H1, Intent } from "@blueprintjs/core";
import { WarningSign } from "@blueprintjs/icons";
import { Link, useLocation } from "react-router-dom";

/** The page for any path the route table does not know (spec §2). */
export function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <section className="portal-page">
      <H1>404 Page Not Found</H1>
      <Callout intent={Intent.WARNING} icon={<WarningSign />}>
        Nothing lives at <code>{pathname}</code>. Did you forget to add the page to the router?
      </Callout>
      <p className="portal-page-after-callout">
        <Link to="/">Back to the home page</Link>
      </p>
    </section>
  );
}
