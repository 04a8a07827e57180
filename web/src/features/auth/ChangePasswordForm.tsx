import { H2, Spinner, SpinnerSize } from "@blueprintjs/core";
import { zodResolver } from "@hookform/resolvers/zod";
import { type ChangePasswordInput, changePasswordSchema } from "@schema/validation/user";
import { useCurrentUser, usePasswordMinLength, useRestMutation } from "@web/data/rest";
import { passwordHint, withPasswordMinimum } from "@web/lib/passwordPolicy";
import { showToast } from "@web/lib/toast";
import { useForm } from "react-hook-form";
import { Link, Navigate, useNavigate } from "react-router-dom";
import type { z } from "zod";
import { AuthFields, failureToast, SubmitRow } from "./authFields";

type ChangePassword = z.output<typeof changePasswordSchema>;

/** The form once the user is known: current and new password, POST /api/user/password. */
function ChangePasswordFields() {
  const navigate = useNavigate();
  const change = useRestMutation<ChangePassword, unknown>({
    request: (input) => ({ method: "POST", path: "/api/user/password", body: input }),
    onSuccess: () => showToast({ title: "Password updated", description: "Your password has been changed." }),
    onError: failureToast("Password change failed"),
  });
  const minLength = usePasswordMinLength();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ChangePasswordInput, unknown, ChangePassword>({
    resolver: zodResolver(withPasswordMinimum(changePasswordSchema, "newPassword", minLength)),
    defaultValues: { currentPassword: "", newPassword: "" },
  });

  const handleChange = handleSubmit(async (input) => {
    if ((await change.run(input)) !== undefined) navigate("/dashboard");
  });

  return (
    <form onSubmit={handleChange} noValidate aria-label="Change password">
      <H2>Change password</H2>
      <p>Your other signed-in devices are signed out when the password changes.</p>
      <AuthFields
        idPrefix="change"
        fields={[
          {
            name: "currentPassword",
            label: "Current password",
            type: "password",
            autoComplete: "current-password",
          },
          {
            name: "newPassword",
            label: "New password",
            type: "password",
            autoComplete: "new-password",
            hint: passwordHint(minLength),
          },
        ]}
        register={register}
        errors={errors}
      />
      <SubmitRow text="Change password" loading={change.isPending}>
        <Link to="/dashboard">Back to Dashboard</Link>
      </SubmitRow>
    </form>
  );
}

/** /auth?mode=change-password: a signed-in user changes their password; signed out goes to login. */
export function ChangePasswordForm() {
  const { user, isLoading } = useCurrentUser();
  if (isLoading) return <Spinner className="portal-page-spinner" size={SpinnerSize.STANDARD} />;
  if (!user) return <Navigate to="/auth" replace />;
  return <ChangePasswordFields />;
}
