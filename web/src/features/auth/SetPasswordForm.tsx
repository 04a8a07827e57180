import { useMutation } from "@apollo/client/react";
import { Callout, H2, Intent } from "@blueprintjs/core";
import { zodResolver } from "@hookform/resolvers/zod";
import { usePasswordMinLength } from "@web/data/rest";
import { AcceptInvitationDocument } from "@web/generated/graphql";
import { passwordHint, withPasswordMinimum } from "@web/lib/passwordPolicy";
import { showToast } from "@web/lib/toast";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Link, useNavigate } from "react-router-dom";
import { AuthFields, passwordPairFields, SubmitRow } from "./authFields";
import { type PasswordPair, passwordPairSchema } from "./passwordPair";

/** Props of the invitation's set-password screen. */
export interface SetPasswordFormProps {
  /** the token of the emailed invitation (/auth?mode=set-password&token=...) */
  token: string;
}

/**
 * An invited user chooses their first password with the emailed link (single use, 72 hours), which
 * also confirms their email; then on to login. A used or expired link says so.
 */
export function SetPasswordForm(props: SetPasswordFormProps) {
  return <SetPasswordFields {...props} />;
}

function SetPasswordFields({ token }: SetPasswordFormProps) {
  const navigate = useNavigate();
  const [accept, state] = useMutation(AcceptInvitationDocument);
  const [problem, setProblem] = useState<string | null>(null);
  const minLength = usePasswordMinLength();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<PasswordPair>({
    resolver: zodResolver(withPasswordMinimum(passwordPairSchema, "password", minLength)),
    defaultValues: { password: "", confirmPassword: "" },
  });

  const handleConfirm = handleSubmit(async ({ password }) => {
    setProblem(null);
    try {
      const result = await accept({ variables: { token, password } });
      const answer = result.data?.acceptInvitation;
      if (answer?.__typename === "MutationAcceptInvitationSuccess") {
        showToast({ title: "Password set", description: answer.data.message });
        navigate("/auth", { replace: true });
        return;
      }
      if (answer?.__typename === "InvalidFields") {
        const field = answer.fields.find((f) => f.field === "password");
        if (field) return setError("password", { message: field.message }, { shouldFocus: true });
      }
      setProblem(answer && "message" in answer ? answer.message : "Your password could not be set");
    } catch {
      setProblem("Your password could not be set. Please try again.");
    }
  });

  if (token === "") {
    return (
      <Callout intent={Intent.DANGER} title="Invitation link invalid">
        <p>This invitation link is invalid. Please use the link from your invitation email.</p>
      </Callout>
    );
  }

  return (
    <form onSubmit={handleConfirm} noValidate aria-label="Set your password">
      <H2>Set your password</H2>
      <p>Welcome! Choose the password you will log in with.</p>
      <AuthFields
        idPrefix="invite"
        fields={passwordPairFields(["Password", "Confirm password"], passwordHint(minLength))}
        register={register}
        errors={errors}
      />
      {problem ? (
        <Callout intent={Intent.DANGER} role="alert" className="portal-form-problem">
          {problem}
          <div>
            <Link to="/auth?mode=forgot-password">Forgot your password?</Link>
          </div>
        </Callout>
      ) : null}
      <SubmitRow text="Set password" loading={state.loading} />
    </form>
  );
}
