import { Spinner, SpinnerSize } from "@blueprintjs/core";
import { CURRENT_USER_KEY, useCurrentUser } from "@web/lib/auth";
import { restCache } from "@web/lib/restCache";
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

  const handleNotesSaved = (notes: string) => restCache.set(CURRENT_USER_KEY, { ...user, notes });

  return (
    <>
      {isAdminType(user.userType) ? null : <WelcomeOverlay firstName={user.firstName} />}
      <UserConsole user={user} preview={false} onNotesSaved={handleNotesSaved} />
    </>
  );
}
