import { EmailRequestForm } from "./EmailRequestForm";

/** Asks for a new email-verification link (POST /api/verify-email/resend). */
export function ResendVerificationForm() {
  return (
    <EmailRequestForm
      name="Resend verification email"
      heading="Verify your email"
      intro="Enter the email address you registered with and we will send you a new verification link."
      endpoint="/api/verify-email/resend"
      submitText="Send verification link"
      fieldId="resend-email"
      success={{
        title: "Verification email requested",
        description: (answer) =>
          answer?.message ??
          "If an account with this email still needs verification, a new link is on its way.",
      }}
      failureTitle="Email verification failed"
    />
  );
}
