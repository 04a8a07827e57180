import { EmailRequestForm } from "./EmailRequestForm";

/** Asks for a password reset link (POST /api/reset-password; the answer is parsed, not inspected). */
export function ResetRequestForm() {
  return (
    <EmailRequestForm
      name="Reset password"
      heading="Reset your password"
      intro="Enter the email address of your account and we will send you a link to set a new password."
      endpoint="/api/reset-password"
      submitText="Send reset link"
      fieldId="reset-email"
      success={{
        title: "Password reset requested",
        description: () => "If an account exists with this email, you will receive reset instructions.",
      }}
      failureTitle="Password reset failed"
    />
  );
}
