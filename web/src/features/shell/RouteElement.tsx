import { useBranding } from "@web/lib/branding";
import { useDocumentTitle } from "@web/lib/pageFocus";
import type { PortalRoute } from "@web/routes";
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
 * client pages. The document title names the route's page.
 */
export function RouteElement({ route }: RouteElementProps) {
  const { access, clientOnly, component: Page } = route;
  useDocumentTitle(route.title, useBranding().title);
  if (access === "public") return <Page />;
  let page = <Page />;
  if (clientOnly) page = <ClientOnlyRoute>{page}</ClientOnlyRoute>;
  if (typeof access === "object") page = <AdminGuard permissions={access.permissions}>{page}</AdminGuard>;
  return <ProtectedRoute>{page}</ProtectedRoute>;
}
