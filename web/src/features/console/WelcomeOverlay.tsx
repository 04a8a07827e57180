import { Button, Classes, H1, H2, Intent } from "@blueprintjs/core";
import { useEffect, useState } from "react";

/** Spec §9: the welcome overlay shows for 8 seconds, then fades out over 0.5 s. */
export const WELCOME_OVERLAY_MS = 8000;
export const WELCOME_FADE_MS = 500;

/** Props of the welcome overlay; the page decides whether it is shown at all. */
export interface WelcomeOverlayProps {
  firstName: string;
}

type Phase = "shown" | "fading" | "gone";

/**
 * The full-screen welcome shown to non-admin users on their dashboard (spec §2): it fades away after
 * 8 seconds, or at once when dismissed.
 */
export function WelcomeOverlay({ firstName }: WelcomeOverlayProps) {
  const [phase, setPhase] = useState<Phase>("shown");

  useEffect(() => {
    if (phase === "gone") return;
    const timer =
      phase === "shown"
        ? setTimeout(() => setPhase("fading"), WELCOME_OVERLAY_MS)
        : setTimeout(() => setPhase("gone"), WELCOME_FADE_MS);
    return () => clearTimeout(timer);
  }, [phase]);

  if (phase === "gone") return null;

  const handleDismiss = () => setPhase("fading");

  return (
    <div
      className={`console-welcome-overlay ${phase === "fading" ? "console-welcome-overlay-fading" : ""}`}
      style={{ transitionDuration: `${WELCOME_FADE_MS}ms` }}
      role="dialog"
      aria-modal="false"
      aria-labelledby="welcome-overlay-title"
    >
      <div className="console-welcome-overlay-content">
        <p className={`${Classes.TEXT_MUTED} console-welcome-overlay-kicker`}>Client FAQ Portal</p>
        <H1 id="welcome-overlay-title">Welcome to the Client FAQ Portal</H1>
        <H2>Welcome, {firstName}!</H2>
        <p className={Classes.RUNNING_TEXT}>
          Now that you have registered, you can submit documents, access reports and update correspondence
          with our team.
        </p>
        <p className={Classes.RUNNING_TEXT}>
          Please save your credentials: you will use them to sign in to our client application, ESRT Pro.
        </p>
        <Button intent={Intent.PRIMARY} text="Continue to my console" onClick={handleDismiss} />
      </div>
    </div>
  );
}
