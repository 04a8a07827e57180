import "./adminLayout.css";
import { Spinner, SpinnerSize } from "@blueprintjs/core";
import { CommandPalette } from "@web/features/palette/CommandPalette";
import { PREFERENCE_KEYS } from "@web/lib/preferences";
import { LARGE_SCREEN_QUERY, useMediaQuery } from "@web/lib/useMediaQuery";
import { usePreference } from "@web/lib/usePreference";
import { lazy, type ReactNode, Suspense } from "react";
import { useLocation } from "react-router-dom";
import { adminPageAt } from "./adminPages";
import { useAdminPages } from "./useAdminPages";

// the navigation (Blueprint's menu items bring the positioning code of their pop-overs) loads with
// the first admin page, not with the app's first page
const AdminNav = lazy(() => import("./AdminNav").then((m) => ({ default: m.AdminNav })));

/** Props of the admin area's frame. */
export interface AdminLayoutProps {
  /** the page, behind its guards */
  children: ReactNode;
}

/**
 * The frame of every admin page (issue 21): for an admin on a screen of 768 px or more, the admin
 * navigation beside the page (folded to its icons when the admin chose so, remembered per browser;
 * below 768 px the top bar's menu lists the same pages); the page uses the screen's width when it is
 * a data page, a readable column when it is a form. The page stays mounted while the permission
 * check runs: only classes change around it.
 */
export function AdminLayout({ children }: AdminLayoutProps) {
  const { pathname } = useLocation();
  const large = useMediaQuery(LARGE_SCREEN_QUERY);
  const groups = useAdminPages();
  const [collapsedChoice, setCollapsedChoice] = usePreference(PREFERENCE_KEYS.adminNavCollapsed);
  const collapsed = collapsedChoice === "1";
  const wide = adminPageAt(pathname)?.wide ?? true;
  const showNav = large && groups !== null;
  const classes = ["admin-layout"];
  // the console's width is an admin's: a non-admin's refusal at /admin stays in the usual column
  if (groups !== null) classes.push("admin-layout-console");
  if (showNav) classes.push(collapsed ? "admin-layout-nav-collapsed" : "admin-layout-nav");
  return (
    <div className={classes.join(" ")}>
      {showNav ? (
        <Suspense fallback={<div />}>
          <AdminNav
            groups={groups}
            collapsed={collapsed}
            onToggleCollapsed={() => setCollapsedChoice(collapsed ? null : "1")}
          />
        </Suspense>
      ) : null}
      <div className={wide ? "admin-content" : "admin-content admin-content-readable"}>
        {/* a page still loading shows its spinner here, and the navigation stays (with the focus) */}
        <Suspense fallback={<Spinner className="portal-page-spinner" size={SpinnerSize.STANDARD} />}>
          {children}
        </Suspense>
      </div>
      {/* Ctrl+K / ⌘K: loaded with this frame, so never part of the app's first page */}
      <CommandPalette />
    </div>
  );
}
