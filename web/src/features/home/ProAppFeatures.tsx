import { useCurrentUser, useServerConfig } from "@web/data/rest";
import "@web/features/console/console.css";
import "./proAppFeatures.css";
import { Card, Classes, H1, H2, H3, Intent, Spinner, SpinnerSize, Tag } from "@blueprintjs/core";
import { LogIn, TickCircle } from "@blueprintjs/icons";
import { BENEFITS } from "@web/features/console/benefits";
import { ProAppButton } from "@web/features/console/ProAppButton";
import { ProAppQr } from "@web/features/console/QrCode";
import { proAppUserUrl } from "@web/lib/qr";
import { Link } from "react-router-dom";

/** How to sign in to ESRT Pro, in order. */
const SIGN_IN_STEPS: readonly string[] = [
  "Open ESRT Pro with the button below, or scan the QR code with your phone.",
  "Sign in with the same username or email and password you use for this portal: there is no second account.",
  "New here? Register on the portal first: your ESRT Pro access comes with your portal account, and your details are sent to ESRT Pro for you.",
];

/**
 * Pro App Features (spec §2; login required by the route table): what ESRT Pro does, how to sign
 * in (the portal's own credentials), and for the signed-in user the launch button and QR code of
 * `{proAppUrl}/user/{uniqueId}`.
 */
export function ProAppFeaturesPage() {
  const { user, isLoading } = useCurrentUser();
  const { config } = useServerConfig();
  const proAppLink = user ? proAppUserUrl(config.proAppUrl, user.uniqueId) : null;

  return (
    <section className="portal-page pro-app-features">
      <H1>Pro App Features</H1>
      <p className={`${Classes.RUNNING_TEXT} pro-app-intro`}>
        ESRT Pro is our receivables application for your business. The portal is where your account is
        created; ESRT Pro receives your details from it, so you can start managing your receivables right
        away.
      </p>

      <H2>What ESRT Pro does</H2>
      <ul className="pro-app-benefits">
        {BENEFITS.map((benefit) => (
          <li key={benefit.title}>
            <Card compact className="pro-app-benefit">
              <H3 className="pro-app-benefit-title">{benefit.title}</H3>
              <p className={Classes.RUNNING_TEXT}>{benefit.description}</p>
            </Card>
          </li>
        ))}
      </ul>

      <H2>How to sign in</H2>
      <ol className={`${Classes.LIST} pro-app-steps`}>
        {SIGN_IN_STEPS.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>

      <H2>Open ESRT Pro</H2>
      {isLoading ? (
        <Spinner size={SpinnerSize.SMALL} aria-label="Loading your account" />
      ) : user && proAppLink ? (
        <div className="console-welcome pro-app-launch">
          <div className="console-welcome-details">
            {user.esrtSynced ? (
              <Tag intent={Intent.SUCCESS} icon={<TickCircle />} large className="console-synced">
                Synced with ESRT Pro
              </Tag>
            ) : (
              <p className={Classes.TEXT_MUTED}>Your details are on their way to ESRT Pro.</p>
            )}
            <p>
              Your ESRT Pro page is for user <strong>{user.uniqueId}</strong>.
            </p>
            <ProAppButton href={proAppLink} large text="Launch ESRT Pro" />
          </div>
          <ProAppQr link={proAppLink} />
        </div>
      ) : (
        <p>
          <Link to="/auth" className="pro-app-sign-in">
            <LogIn aria-hidden /> Sign in to the portal
          </Link>{" "}
          to get your ESRT Pro link and QR code.
        </p>
      )}
    </section>
  );
}
