import { Alignment, Button, Classes, Navbar } from "@blueprintjs/core";
import { CaretDown, LogOut, Menu as MenuIcon, User } from "@blueprintjs/icons";
import { LARGE_SCREEN_QUERY, useMediaQuery } from "@web/lib/useMediaQuery";
import { lazy, Suspense } from "react";
import { NavLink } from "react-router-dom";
import { BrandLogo } from "./BrandLogo";
import { type TopBarUser, topBarLinks } from "./topBarLinks";

const UserMenu = lazy(() => import("./topBarMenus").then((m) => ({ default: m.UserMenu })));
const CompactMenu = lazy(() => import("./topBarMenus").then((m) => ({ default: m.CompactMenu })));

/** Props of the top bar; `user` is null while signed out. */
export interface TopBarProps {
  brandTitle: string;
  /** the branding's logo, shown before the title (the portal's mark when it cannot load) */
  brandLogoUrl?: string;
  user: TopBarUser | null;
  onLogout?: () => void;
  loggingOut?: boolean;
}

/**
 * The portal's top bar: brand title linking home, the links the user may follow, and the user menu.
 * On a small screen the links and the user's items fold into one menu, so nothing runs off the
 * screen (WCAG 1.4.10). The menus load on first use of a signed-in or small-screen bar; meanwhile
 * their button shows, inert.
 */
export function TopBar({ brandTitle, brandLogoUrl, user, onLogout, loggingOut = false }: TopBarProps) {
  const large = useMediaQuery(LARGE_SCREEN_QUERY);
  const links = topBarLinks(user);
  const welcome = user ? `Welcome, ${user.firstName}` : "Menu";
  return (
    <Navbar className="portal-topbar">
      <Navbar.Group align={Alignment.START} className="portal-topbar-start">
        <Navbar.Heading className="portal-topbar-heading">
          <NavLink to="/" className="portal-brand" data-tour="logo">
            {brandLogoUrl ? <BrandLogo src={brandLogoUrl} /> : null}
            <span className="portal-brand-title">{brandTitle}</span>
          </NavLink>
        </Navbar.Heading>
      </Navbar.Group>
      <Navbar.Group align={Alignment.END} className="portal-topbar-end">
        {large ? (
          <>
            <nav aria-label="Main" className="portal-nav">
              {links.map((link) => (
                <NavLink
                  key={link.to}
                  to={link.to}
                  data-tour={link.tourAnchor}
                  className={({ isActive }) =>
                    [Classes.BUTTON, Classes.MINIMAL, isActive ? Classes.ACTIVE : ""]
                      .filter(Boolean)
                      .join(" ")
                  }
                >
                  {link.label}
                </NavLink>
              ))}
            </nav>
            {user ? (
              <span className="portal-user-menu">
                <Navbar.Divider />
                <Suspense
                  fallback={
                    <Button
                      variant="minimal"
                      icon={<User />}
                      endIcon={<CaretDown />}
                      className="portal-welcome"
                      text={welcome}
                    />
                  }
                >
                  <UserMenu firstName={user.firstName} onLogout={onLogout} loggingOut={loggingOut} />
                </Suspense>
                {onLogout ? (
                  // spec §2: a logout button for signed-in users, in the top bar itself
                  <Button
                    variant="minimal"
                    icon={<LogOut />}
                    text="Logout"
                    loading={loggingOut}
                    onClick={onLogout}
                  />
                ) : null}
              </span>
            ) : null}
          </>
        ) : (
          <nav aria-label="Main" className="portal-nav">
            <Suspense
              fallback={
                <Button
                  variant="minimal"
                  icon={<MenuIcon />}
                  endIcon={<CaretDown />}
                  className="portal-compact-menu"
                  text={welcome}
                />
              }
            >
              <CompactMenu links={links} user={user} onLogout={onLogout} loggingOut={loggingOut} />
            </Suspense>
          </nav>
        )}
      </Navbar.Group>
    </Navbar>
  );
}
