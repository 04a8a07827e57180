import { Spinner, SpinnerSize } from "@blueprintjs/core";
import {
  useBranding,
  useBrandingRefresh,
  useCacheResetAfterSignOut,
  useCurrentUser,
  useLogout,
} from "@web/data/rest";
import { useFocusHeadingAfterNavigation } from "@web/lib/pageFocus";
import { useSessionTracking } from "@web/lib/sessionTracking";
import { Suspense, useRef } from "react";
import { Outlet, useLocation, useNavigate } from "react-router-dom";
import { Toasts } from "./Toasts";
import { TopBar } from "./TopBar";

export { DEFAULT_BRAND_TITLE } from "@web/lib/branding";

/**
 * The frame of every page: top bar, the page (lazy, with a spinner meanwhile), footer and toasts; it
 * also runs the session idle tracking while a user is signed in, and after a navigation that left
 * focus nowhere moves it to the new page's heading.
 */
export function Layout() {
  const { user } = useCurrentUser();
  const { title, logoUrl } = useBranding();
  useBrandingRefresh();
  const logout = useLogout();
  const navigate = useNavigate();
  // the path whose page `main` shows: it changes in the same render as the page (a navigation is a
  // transition: the old page stays until the new one is ready), so tools can tell the two apart
  const { pathname } = useLocation();
  const mainRef = useRef<HTMLElement>(null);
  useSessionTracking({ enabled: user !== null });
  useCacheResetAfterSignOut(user !== null);
  useFocusHeadingAfterNavigation(mainRef);

  const handleLogout = async () => {
    if (await logout.run()) navigate("/auth");
  };

  return (
    <div className="portal-shell">
      <TopBar
        brandTitle={title}
        brandLogoUrl={logoUrl}
        user={user}
        onLogout={() => void handleLogout()}
        loggingOut={logout.isPending}
      />
      <main className="portal-main" ref={mainRef} data-path={pathname}>
        <Suspense fallback={<Spinner className="portal-page-spinner" size={SpinnerSize.STANDARD} />}>
          <Outlet />
        </Suspense>
      </main>
      <footer className="portal-footer">Receivable Services &amp; Consulting</footer>
      <Toasts />
    </div>
  );
}
