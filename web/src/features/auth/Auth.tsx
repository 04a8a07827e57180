import { Card, H1, Spinner, SpinnerSize, Tab, Tabs } from "@blueprintjs/core";
import { useCurrentUser } from "@web/data/rest";
import {
  isSecurityChallenge,
  isTwoFactorChallenge,
  type SecurityChallenge,
  type SignInAnswer,
  type TwoFactorChallenge,
} from "@web/lib/auth";
import { tabOf } from "@web/ui/tabs";
import { lazy, type ReactNode, Suspense, useState } from "react";
import { Navigate, useNavigate, useSearchParams } from "react-router-dom";
import { LoginForm } from "./LoginForm";
import { PasskeySignIn } from "./PasskeySignIn";

// Only the login form loads with /auth; every other screen of the page loads when it is opened.
const RegisterForm = lazy(() => import("./RegisterForm").then((m) => ({ default: m.RegisterForm })));
const SecurityAnswerStep = lazy(() =>
  import("./SecurityAnswerStep").then((m) => ({ default: m.SecurityAnswerStep })),
);
const TwoFactorStep = lazy(() => import("./TwoFactorStep").then((m) => ({ default: m.TwoFactorStep })));
const ResetRequestForm = lazy(() =>
  import("./ResetRequestForm").then((m) => ({ default: m.ResetRequestForm })),
);
const ResetPasswordForm = lazy(() =>
  import("./ResetPasswordForm").then((m) => ({ default: m.ResetPasswordForm })),
);
const SetPasswordForm = lazy(() => import("./SetPasswordForm").then((m) => ({ default: m.SetPasswordForm })));
const VerifyEmail = lazy(() => import("./VerifyEmail").then((m) => ({ default: m.VerifyEmail })));
const ResendVerificationForm = lazy(() =>
  import("./ResendVerificationForm").then((m) => ({ default: m.ResendVerificationForm })),
);
const SecurityQuestionsSetup = lazy(() =>
  import("./SecurityQuestionsSetup").then((m) => ({ default: m.SecurityQuestionsSetup })),
);
const ChangePasswordForm = lazy(() =>
  import("./ChangePasswordForm").then((m) => ({ default: m.ChangePasswordForm })),
);

const loading = <Spinner className="portal-page-spinner" size={SpinnerSize.STANDARD} />;

type AuthTab = "login" | "register";

/**
 * Login and Register tabs; a signed-in visitor goes straight to the dashboard. After the password
 * come the steps the account asks for: a second factor (issue 20), then the enhanced level's question.
 */
function SignIn() {
  const { user, isLoading } = useCurrentUser();
  const navigate = useNavigate();
  const [tab, setTab] = useState<AuthTab>("login");
  const [challenge, setChallenge] = useState<SecurityChallenge | null>(null);
  const [twoFactor, setTwoFactor] = useState<TwoFactorChallenge | null>(null);
  const [signingIn, setSigningIn] = useState(false);

  const handleSignedIn = () => {
    setSigningIn(true);
    navigate("/dashboard");
  };

  const handleAnswer = (answer: SignInAnswer) => {
    setTwoFactor(isTwoFactorChallenge(answer) ? answer : null);
    setChallenge(isSecurityChallenge(answer) ? answer : null);
    if (!isTwoFactorChallenge(answer) && !isSecurityChallenge(answer)) handleSignedIn();
  };

  if (isLoading) return loading;
  if (user && !signingIn) return <Navigate to="/dashboard" replace />;
  if (twoFactor) {
    return (
      <TwoFactorStep challenge={twoFactor} onAnswer={handleAnswer} onCancel={() => setTwoFactor(null)} />
    );
  }
  if (challenge) {
    return (
      <SecurityAnswerStep
        challenge={challenge}
        onSignedIn={handleSignedIn}
        onCancel={() => setChallenge(null)}
      />
    );
  }
  // `tabOf` marks each tab `tabOf` marks each tab `disabled={false}`: Blueprint's arrow keys move only between tabs marked
  // aria-disabled="false", which it no longer sets by default under React 19.
  return (
    <Tabs
      id="auth-tabs"
      selectedTabId={tab}
      onChange={(next) => setTab(next === "register" ? "register" : "login")}
      large
    >
      <Tab
        {...tabOf("login", "Login")}
        panel={
          <>
            <LoginForm onAnswer={handleAnswer} />
            <PasskeySignIn onAnswer={handleAnswer} />
          </>
        }
      />
      <Tab
        {...tabOf("register", "Register")}
        panel={tab === "register" ? <RegisterForm onRegistered={handleSignedIn} /> : undefined}
      />
    </Tabs>
  );
}

/**
 * /auth (spec §2): login and register, and the screens the emailed links and the account open through
 * `?mode=`: forgot-password, reset-password (with token), set-password (an invitation's token, issue 11),
 * verify-email (with token), resend-verification,
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
    case "set-password":
      content = <SetPasswordForm token={token} />;
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
      <Card className="portal-auth-card">
        <Suspense fallback={loading}>{content}</Suspense>
      </Card>
    </section>
  );
}
