import { Callout, H2, Intent } from "@blueprintjs/core";
import { zodResolver } from "@hookform/resolvers/zod";
import { usePasswordMinLength, useRestMutation } from "@web/data/rest";
import { passwordHint, withPasswordMinimum } from "@web/lib/passwordPolicy";
import { showToast } from "@web/lib/toast";
import { useForm } from "react-hook-form";
import { Link, useNavigate } from "react-router-dom";
import { AuthFields, failureToast, passwordPairFields, SubmitRow } from "./authFields";
import { type PasswordPair, passwordPairSchema } from "./passwordPair";

/** Props of the set-new-password screen. */
export interface ResetPasswordFormProps {
  /** the token of the emailed link (/auth?mode=reset-password&token=...) */
  token: string;
}

/** Sets a new password with the emailed token (POST /api/reset-password/confirm), then back to login. */
export function ResetPasswordForm({ token }: ResetPasswordFormProps) {
  const navigate = useNavigate();
  const confirm = useRestMutation<string, unknown>({
    request: (password) => ({
      method: "POST",
      path: "/api/reset-password/confirm",
      body: { token, password },
    }),
    onSuccess: () =>
      showToast({ title: "Password updated", description: "You can now log in with your new password." }),
    onError: failureToast("Password reset failed"),
  });
  const minLength = usePasswordMinLength();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<PasswordPair>({
    resolver: zodResolver(withPasswordMinimum(passwordPairSchema, "password", minLength)),
    defaultValues: { password: "", confirmPassword: "" },
  });

  const handleConfirm = handleSubmit(async ({ password }) => {
    if ((await confirm.run(password)) !== undefined) navigate("/auth", { replace: true });
  });

  if (token === "") {
    return (
      <Callout intent={Intent.DANGER} title="Password reset failed">
        <p>This reset link is invalid or has expired.</p>
        <Link to="/auth?mode=forgot-password">Ask for a new link</Link>
      </Callout>
    );
  }

  return (
    <form onSubmit={handleConfirm} noValidate aria-label="Set a new password">
      <H2>Set a new password</H2>
      <AuthFields
        idPrefix="reset"
        fields={passwordPairFields(["New password", "Confirm new password"], passwordHint(minLength))}
        register={register}
        errors={errors}
      />
      <SubmitRow text="Set new password" loading={confirm.isPending}>
        <Link to="/auth?mode=forgot-password">Ask for a new link</Link>
      </SubmitRow>
    </form>
  );
}
