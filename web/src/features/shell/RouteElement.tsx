import { useBranding } from "@web/data/rest";
import { useDocumentTitle } from "@web/lib/pageFocus";
import { isAdminPath, type PortalRoute } from "@web/routes";
import { ErrorBoundary } from "@web/ui/ErrorBoundary";
import { lazy } from "react";
import { AdminGuard } from "./AdminGuard";
import { ClientOnlyRoute } from "./ClientOnlyRoute";
import { ProtectedRoute } from "./ProtectedRoute";

// the admin area's frame and navigation load with the first admin page, not with the app
const AdminLayout = lazy(() => import("./AdminLayout").then((m) => ({ default: m.AdminLayout })));

/** Props of one routed page. */
export interface RouteElementProps {
  route: PortalRoute;
}

/**
 * A route's page behind the guards its access rule asks for (spec §2, §4): sign-in for every
 * non-public route, then the admin-area guard for permission routes and the client-only guard for
 * client pages; the admin area's pages sit in its frame (AdminLayout). The document title names the
 * route's page; an error boundary keeps a page that fails (its chunk gone after a deploy, or an
 * error while rendering) from blanking the app.
 */
export function RouteElement({ route }: RouteElementProps) {
  const { access, clientOnly, component: Page } = route;
  useDocumentTitle(route.title, useBranding().title);
  // the page's own boundary: its chunk failing to load, or its render throwing, leaves the shell up
  let page = (
    <ErrorBoundary key={route.path} name={route.path}>
      <Page />
    </ErrorBoundary>
  );
  if (access === "public") return page;
  if (clientOnly) page = <ClientOnlyRoute>{page}</ClientOnlyRoute>;
  if (typeof access === "object") page = <AdminGuard permissions={access.permissions}>{page}</AdminGuard>;
  // the admin area's frame (its navigation) stays mounted from one admin page to the next
  if (isAdminPath(route.path)) page = <AdminLayout>{page}</AdminLayout>;
  return <ProtectedRoute>{page}</ProtectedRoute>;
}
