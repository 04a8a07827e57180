import { useCurrentUser } from "@web/data/rest";
import { showToast } from "@web/lib/toast";
import { type ReactNode, useEffect, useRef } from "react";
import { Navigate } from "react-router-dom";
import { isClientUserType, PROSPECT_LANDING_PATH, PROSPECT_TOAST_DELAY_MS } from "./clientAccess";

/** Props of the client-only guard. */
export interface ClientOnlyRouteProps {
  children: ReactNode;
}

/**
 * Spec §4: prospects (and users whose client access is not confirmed) go to /prospect-landing, and
 * the 'Access Restricted' toast shows 100 ms later. Sits inside ProtectedRoute.
 */
export function ClientOnlyRoute({ children }: ClientOnlyRouteProps) {
  const { user } = useCurrentUser();
  const admitted = user !== null && isClientUserType(user.userType);
  const toasted = useRef(false);

  useEffect(() => {
    if (admitted || toasted.current) return;
    toasted.current = true;
    window.setTimeout(
      () =>
        showToast({
          title: "Access Restricted",
          description:
            "This feature is only available to clients. Please contact your administrator for assistance.",
          intent: "destructive",
        }),
      PROSPECT_TOAST_DELAY_MS,
    );
  }, [admitted]);

  if (!admitted) return <Navigate to={PROSPECT_LANDING_PATH} replace />;
  return <>{children}</>;
}
