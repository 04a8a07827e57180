import { Spinner, SpinnerSize } from "@blueprintjs/core";
import { useCurrentUser } from "@web/data/rest";
import { Navigate } from "react-router-dom";
import { isAdminType } from "./consoleUser";
import { UserConsole } from "./UserConsole";
import { WelcomeOverlay } from "./WelcomeOverlay";

/**
 * /dashboard (spec §2): the signed-in user's console, with the welcome overlay for non-admins. The
 * route's guard sends signed-out visitors to /auth; this page does the same should it render first.
 */
export function DashboardPage() {
  const { user, isLoading } = useCurrentUser();
  if (isLoading) return <Spinner className="portal-page-spinner" size={SpinnerSize.STANDARD} />;
  if (!user) return <Navigate to="/auth" replace />;

  return (
    <>
      {isAdminType(user.userType) ? null : <WelcomeOverlay firstName={user.firstName} />}
      <UserConsole user={user} preview={false} />
    </>
  );
}
