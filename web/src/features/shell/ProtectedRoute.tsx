import { Spinner, SpinnerSize } from "@blueprintjs/core";
import { useCurrentUser } from "@web/data/rest";
import { TWO_FACTOR_PATH } from "@web/features/two-factor/path";
import type { ReactNode } from "react";
import { Navigate, useLocation } from "react-router-dom";
import { VerifyEmailFirst } from "./VerifyEmailFirst";

/** Props of a guard around a page. */
export interface ProtectedRouteProps {
  children: ReactNode;
}

/**
 * Spec §4: a spinner while the user loads, /auth when signed out, else the page; a session that can
 * only verify its email (needsVerification) sees the page that says so instead of any other, and one
 * that can only set up two-factor sign-in (needsTwoFactorEnrolment, issue 20) is sent to its page.
 */
export function ProtectedRoute({ children }: ProtectedRouteProps) {
  const { user, isLoading } = useCurrentUser();
  const { pathname } = useLocation();
  if (isLoading) return <Spinner className="portal-page-spinner" size={SpinnerSize.STANDARD} />;
  if (!user) return <Navigate to="/auth" replace />;
  if (user.needsVerification) return <VerifyEmailFirst email={user.email} />;
  if (user.needsTwoFactorEnrolment && pathname !== TWO_FACTOR_PATH) {
    return <Navigate to={TWO_FACTOR_PATH} replace />;
  }
  return <>{children}</>;
}
