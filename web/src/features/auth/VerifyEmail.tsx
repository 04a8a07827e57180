import { Callout, Intent, Spinner, SpinnerSize } from "@blueprintjs/core";
import { refetchCurrentUser, useRestSend } from "@web/data/rest";
import { serverMessage } from "@web/lib/apiErrors";
import { showToast } from "@web/lib/toast";
import { useEffect, useRef, useState } from "react";
import { Link } from "react-router-dom";

/** Props of the email-verification landing. */
export interface VerifyEmailProps {
  /** the token of the emailed link (/auth?mode=verify-email&token=...) */
  token: string;
}

type Outcome = { state: "verifying" } | { state: "verified" } | { state: "failed"; message: string };

/**
 * The landing of the verification link: sends the token once (POST /api/verify-email) and says how it
 * went ('Email verified' or 'Email verification failed', spec §8).
 */
export function VerifyEmail({ token }: VerifyEmailProps) {
  const [outcome, setOutcome] = useState<Outcome>({ state: "verifying" });
  const sent = useRef(false);
  const send = useRestSend();

  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    send({ method: "POST", path: "/api/verify-email", body: { token } })
      .then(() => {
        setOutcome({ state: "verified" });
        showToast({ title: "Email verified", description: "Your email has been successfully verified." });
        void refetchCurrentUser();
      })
      .catch((error: unknown) => {
        const message = serverMessage(error, "Email verification failed");
        setOutcome({ state: "failed", message });
        showToast({ title: "Email verification failed", description: message, intent: "destructive" });
      });
  }, [token, send]);

  if (outcome.state === "verifying")
    return <Spinner className="portal-page-spinner" size={SpinnerSize.STANDARD} />;
  if (outcome.state === "verified") {
    return (
      <Callout intent={Intent.SUCCESS} title="Email verified">
        <p>Your email has been successfully verified.</p>
        <Link to="/dashboard">Go to your dashboard</Link>
      </Callout>
    );
  }
  return (
    <Callout intent={Intent.DANGER} title="Email verification failed">
      <p>{outcome.message}</p>
      <Link to="/auth">Back to login</Link>
    </Callout>
  );
}
