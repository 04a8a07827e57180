import { Button, Callout, Intent, Spinner, SpinnerSize } from "@blueprintjs/core";
import { Lock } from "@blueprintjs/icons";
import { usePermissionCheck } from "@web/data/rest";
import type { ReactNode } from "react";
import { Navigate, useNavigate } from "react-router-dom";

/** Props of the admin-area guard. */
export interface AdminGuardProps {
  /** every permission the page needs */
  permissions: readonly string[];
  /** where a non-admin is sent; default /dashboard */
  fallback?: string;
  children: ReactNode;
}

/**
 * Spec §4 admin-area guard: a spinner while the permission check runs, the fallback for a non-admin,
 * the 'Permission Denied' alert for an admin lacking a permission, else the page.
 */
export function AdminGuard({ permissions, fallback = "/dashboard", children }: AdminGuardProps) {
  const { result, isLoading } = usePermissionCheck(permissions);
  const navigate = useNavigate();
  if (isLoading || !result) return <Spinner className="portal-page-spinner" size={SpinnerSize.STANDARD} />;
  if (!result.isAdmin) return <Navigate to={fallback} replace />;
  if (!result.hasPermissions) {
    return (
      <section className="portal-page">
        <Callout intent={Intent.DANGER} icon={<Lock />} title="Permission Denied" role="alert">
          <p>
            You don't have the necessary permissions to access this area.
            {result.message ? ` ${result.message}` : ""}
          </p>
          <Button intent={Intent.PRIMARY} text="Back to Dashboard" onClick={() => navigate("/dashboard")} />
        </Callout>
      </section>
    );
  }
  return <>{children}</>;
}
