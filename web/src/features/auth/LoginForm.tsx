import type { LoginInput } from "@schema/validation/user";
import { useLogin } from "@web/data/rest";
import type { SignInAnswer } from "@web/lib/auth";
import { lazyResolver } from "@web/lib/lazyResolver";
import { showToast } from "@web/lib/toast";
import type { FormEvent } from "react";
import { useForm } from "react-hook-form";
import { Link } from "react-router-dom";
import { AuthFields, SubmitRow } from "./authFields";

const validation = lazyResolver(() => import("./loginValidation").then((m) => m.loginResolver));

/** Props of the login form. */
export interface LoginFormProps {
  /** the answer: the signed-in user, or the next step (a second factor, a security question) */
  onAnswer(answer: SignInAnswer): void;
}

/**
 * Login with a username or email and a password; failures show the 'Login failed' toast (spec §8).
 * The validation code loads when the form is first focused.
 */
export function LoginForm({ onAnswer }: LoginFormProps) {
  const login = useLogin();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<LoginInput>({ resolver: validation.resolver, defaultValues: { login: "", password: "" } });

  // a failed download is tried again when the form is submitted
  const handlePreload = () => void validation.preload().catch(() => undefined);

  const submit = handleSubmit(async (input) => {
    const result = await login.run(input);
    if (result) onAnswer(result);
  });
  // Only loading the validation code can throw here (login.run never does): the network is away.
  const handleLogin = (event: FormEvent<HTMLFormElement>) =>
    submit(event).catch(() =>
      showToast({
        title: "Login failed",
        description: "The portal could not be reached. Check your connection and try again.",
        intent: "destructive",
      }),
    );

  return (
    <form onSubmit={handleLogin} onFocus={handlePreload} noValidate aria-label="Login">
      <AuthFields
        idPrefix="login"
        fields={[
          { name: "login", label: "Username or email", autoComplete: "username" },
          { name: "password", label: "Password", type: "password", autoComplete: "current-password" },
        ]}
        register={register}
        errors={errors}
      />
      <SubmitRow text="Login" loading={login.isPending}>
        <Link to="/auth?mode=forgot-password">Forgot your password?</Link>
        <Link to="/auth?mode=resend-verification">Resend verification email</Link>
      </SubmitRow>
    </form>
  );
}
