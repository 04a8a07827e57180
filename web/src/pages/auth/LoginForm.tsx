import { Button, Intent } from "@blueprintjs/core";
import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { Link } from "react-router-dom";
import { type LoginInput, loginSchema } from "../../../../schema/validation/user";
import { isSecurityChallenge, type SafeUser, type SecurityChallenge, useLogin } from "../../lib/auth";
import { TextField } from "./TextField";

/** Props of the login form. */
export interface LoginFormProps {
  onSignedIn(user: SafeUser): void;
  onChallenge(challenge: SecurityChallenge): void;
}

/** Login with a username or email and a password; failures show the 'Login failed' toast (spec §8). */
export function LoginForm({ onSignedIn, onChallenge }: LoginFormProps) {
  const login = useLogin();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<LoginInput>({ resolver: zodResolver(loginSchema), defaultValues: { login: "", password: "" } });

  const handleLogin = handleSubmit(async (input) => {
    const result = await login.run(input);
    if (!result) return;
    if (isSecurityChallenge(result)) onChallenge(result);
    else onSignedIn(result);
  });

  return (
    <form onSubmit={handleLogin} noValidate aria-label="Login">
      <TextField
        id="login-login"
        label="Username or email"
        autoComplete="username"
        registration={register("login")}
        error={errors.login?.message}
      />
      <TextField
        id="login-password"
        label="Password"
        type="password"
        autoComplete="current-password"
        registration={register("password")}
        error={errors.password?.message}
      />
      <div className="portal-actions">
        <Button type="submit" intent={Intent.PRIMARY} text="Login" loading={login.isPending} />
        <Link to="/auth?mode=forgot-password">Forgot your password?</Link>
        <Link to="/auth?mode=resend-verification">Resend verification email</Link>
      </div>
    </form>
  );
}
