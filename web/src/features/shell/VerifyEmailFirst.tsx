import { Button, Callout, H1, Intent } from "@blueprintjs/core";
import { Envelope } from "@blueprintjs/icons";
import { useRestMutation } from "@web/data/rest";
import { serverMessage } from "@web/lib/apiErrors";
import { showToast } from "@web/lib/toast";

/** Props of the page a session limited to verification sees. */
export interface VerifyEmailFirstProps {
  /** the address the verification link went to */
  email: string;
}

/**
 * What every signed-in page shows while the session can only verify its email (the server refuses
 * the rest, issue 20): where the link went, and a button that sends it again. Following the link
 * (/auth?mode=verify-email) opens the portal.
 */
export function VerifyEmailFirst({ email }: VerifyEmailFirstProps) {
  const resend = useRestMutation<Record<string, never>, { message?: string } | undefined>({
    request: () => ({ method: "POST", path: "/api/verify-email/resend", body: {} }),
    onSuccess: () =>
      showToast({
        title: "Verification email requested",
        description: `A new verification link is on its way to ${email}.`,
      }),
    onError: (error) =>
      showToast({
        title: "Email verification failed",
        description: serverMessage(error, "Email verification failed"),
        intent: "destructive",
      }),
  });
  const handleResend = () => void resend.run({});

  return (
    <section className="portal-page">
      <H1>Verify your email</H1>
      <Callout intent={Intent.PRIMARY} title="Check your inbox">
        <p>
          We sent a verification link to <strong>{email}</strong>. Open it to start using the portal: until
          then your account can only verify its email.
        </p>
        <Button
          icon={<Envelope />}
          text="Send the link again"
          loading={resend.isPending}
          onClick={handleResend}
        />
      </Callout>
    </section>
  );
}
