import { Card, H1, Spinner, SpinnerSize, Tab, Tabs } from "@blueprintjs/core";
import { type ReactNode, useState } from "react";
import { Navigate, useNavigate, useSearchParams } from "react-router-dom";
import { type SafeUser, type SecurityChallenge, useCurrentUser } from "../lib/auth";
import { ChangePasswordForm } from "./auth/ChangePasswordForm";
import { LoginForm } from "./auth/LoginForm";
import { RegisterForm } from "./auth/RegisterForm";
import { ResendVerificationForm } from "./auth/ResendVerificationForm";
import { ResetPasswordForm } from "./auth/ResetPasswordForm";
import { ResetRequestForm } from "./auth/ResetRequestForm";
import { SecurityAnswerStep } from "./auth/SecurityAnswerStep";
import { SecurityQuestionsSetup } from "./auth/SecurityQuestionsSetup";
import { VerifyEmail } from "./auth/VerifyEmail";

type AuthTab = "login" | "register";

/** Login and Register tabs; a signed-in visitor goes straight to the dashboard. */
function SignIn() {
  const { user, isLoading } = useCurrentUser();
  const navigate = useNavigate();
  const [tab, setTab] = useState<AuthTab>("login");
  const [challenge, setChallenge] = useState<SecurityChallenge | null>(null);
  const [signingIn, setSigningIn] = useState(false);

  const handleSignedIn = (_user: SafeUser) => {
    setSigningIn(true);
    navigate("/dashboard");
  };

  if (isLoading) return <Spinner className="portal-page-spinner" size={SpinnerSize.STANDARD} />;
  if (user && !signingIn) return <Navigate to="/dashboard" replace />;
  if (challenge) {
    return (
      <SecurityAnswerStep
        challenge={challenge}
        onSignedIn={handleSignedIn}
        onCancel={() => setChallenge(null)}
      />
    );
  }
  return (
    <Tabs
      id="auth-tabs"
      selectedTabId={tab}
      onChange={(next) => setTab(next === "register" ? "register" : "login")}
      large
    >
      <Tab
        id="login"
        title="Login"
        panel={<LoginForm onSignedIn={handleSignedIn} onChallenge={setChallenge} />}
      />
      <Tab id="register" title="Register" panel={<RegisterForm onRegistered={handleSignedIn} />} />
    </Tabs>
  );
}

/**
 * /auth (spec §2): login and register, and the screens the emailed links and the account open through
 * `?mode=`: forgot-password, reset-password (with token), verify-email (with token), resend-verification,
 * security-questions and change-password.
 */
export function AuthPage() {
  const [params] = useSearchParams();
  const mode = params.get("mode");
  const token = params.get("token") ?? "";

  let content: ReactNode;
  switch (mode) {
    case "forgot-password":
      content = <ResetRequestForm />;
      break;
    case "reset-password":
      content = <ResetPasswordForm token={token} />;
      break;
    case "verify-email":
      content = <VerifyEmail token={token} />;
      break;
    case "resend-verification":
      content = <ResendVerificationForm />;
      break;
    case "security-questions":
      content = <SecurityQuestionsSetup />;
      break;
    case "change-password":
      content = <ChangePasswordForm />;
      break;
    default:
      content = <SignIn />;
  }
  return (
    <section className="portal-page portal-auth">
      <H1>Login / Register</H1>
      <Card className="portal-auth-card">{content}</Card>
    </section>
  );
}
