import { useBranding } from "@web/data/rest";
import { useDocumentTitle } from "@web/lib/pageFocus";
import type { PortalRoute } from "@web/routes";
import { ErrorBoundary } from "@web/ui/ErrorBoundary";
import { AdminGuard } from "./AdminGuard";
import { ClientOnlyRoute } from "./ClientOnlyRoute";
import { ProtectedRoute } from "./ProtectedRoute";

/** Props of one routed page. */
export interface RouteElementProps {
  route: PortalRoute;
}

/**
 * A route's page behind the guards its access rule asks for (spec §2, §4): sign-in for every
 * non-public route, then the admin-area guard for permission routes and the client-only guard for
 * client pages. The document title names the route's page; an error boundary keeps a page that fails
 * (its chunk gone after a deploy, or an error while rendering) from blanking the app.
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
  return <ProtectedRoute>{page}</ProtectedRoute>;
}
