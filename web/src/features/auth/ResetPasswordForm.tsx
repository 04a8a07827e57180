import { Button, Callout, H2, Intent } from "@blueprintjs/core";
import { zodResolver } from "@hookform/resolvers/zod";
import { passwordSchema } from "@schema/validation/user";
import { usePasswordMinLength, useRestMutation } from "@web/data/rest";
import { serverMessage } from "@web/lib/apiErrors";
import { passwordHint, withPasswordMinimum } from "@web/lib/passwordPolicy";
import { showToast } from "@web/lib/toast";
import { TextField } from "@web/ui/TextField";
import { useForm } from "react-hook-form";
import { Link, useNavigate } from "react-router-dom";
import { z } from "zod";

/** Props of the set-new-password screen. */
export interface ResetPasswordFormProps {
  /** the token of the emailed link (/auth?mode=reset-password&token=...) */
  token: string;
}

const newPasswordForm = z
  .object({ password: passwordSchema, confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, {
    message: "Passwords do not match",
    path: ["confirmPassword"],
  });
type NewPasswordForm = z.input<typeof newPasswordForm>;

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
    onError: (error) =>
      showToast({
        title: "Password reset failed",
        description: serverMessage(error, "Password reset failed"),
        intent: "destructive",
      }),
  });
  const minLength = usePasswordMinLength();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<NewPasswordForm>({
    resolver: zodResolver(withPasswordMinimum(newPasswordForm, "password", minLength)),
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
      <TextField
        id="reset-password"
        label="New password"
        type="password"
        autoComplete="new-password"
        registration={register("password")}
        error={errors.password?.message}
        hint={passwordHint(minLength)}
      />
      <TextField
        id="reset-confirmPassword"
        label="Confirm new password"
        type="password"
        autoComplete="new-password"
        registration={register("confirmPassword")}
        error={errors.confirmPassword?.message}
      />
      <div className="portal-actions">
        <Button type="submit" intent={Intent.PRIMARY} text="Set new password" loading={confirm.isPending} />
        <Link to="/auth?mode=forgot-password">Ask for a new link</Link>
      </div>
    </form>
  );
}
