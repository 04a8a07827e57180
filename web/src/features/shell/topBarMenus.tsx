import { Button, Menu, MenuDivider, MenuItem, Popover } from "@blueprintjs/core";
import { CaretDown, Key, Lock, LogOut, Menu as MenuIcon, Shield, User } from "@blueprintjs/icons";
import type { MouseEvent } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import { type TopBarLink, type TopBarUser, userMenuItems } from "./topBarLinks";

// The top bar's pop-up menus, loaded apart from the first page: a signed-out visitor on a large
// screen never needs them (nor the positioning code a popover brings).

/** Props of the signed-in user's menu. */
export interface UserMenuProps {
  firstName: string;
  onLogout?: () => void;
  loggingOut: boolean;
}

/** Props of the small-screen menu: every link of the top bar and, signed in, the account items. */
export interface CompactMenuProps {
  links: readonly TopBarLink[];
  user: TopBarUser | null;
  onLogout?: () => void;
  loggingOut: boolean;
}

/** The icon of an account screen of the user menu. */
function menuIcon(to: string) {
  if (to === "/two-factor") return <Lock />;
  return to.endsWith("security-questions") ? <Shield /> : <Key />;
}

/** The items of the user menu: two-factor sign-in, security questions, change password, then logout. */
function AccountItems({ onLogout, loggingOut }: Omit<UserMenuProps, "firstName">) {
  const navigate = useNavigate();
  return (
    <>
      {userMenuItems().map((item) =>
        "to" in item ? (
          <MenuItem
            key={item.label}
            text={item.label}
            icon={menuIcon(item.to)}
            href={item.to}
            onClick={(event: MouseEvent) => {
              event.preventDefault();
              navigate(item.to);
            }}
          />
        ) : onLogout ? (
          [
            <MenuDivider key="divider" />,
            <MenuItem
              key={item.label}
              text={item.label}
              icon={<LogOut />}
              disabled={loggingOut}
              onClick={onLogout}
            />,
          ]
        ) : null,
      )}
    </>
  );
}

/** 'Welcome, {first name}' opening a menu: the account's screens and logout. */
export function UserMenu({ firstName, onLogout, loggingOut }: UserMenuProps) {
  return (
    <Popover
      content={
        <Menu aria-label="Account">
          <AccountItems onLogout={onLogout} loggingOut={loggingOut} />
        </Menu>
      }
      placement="bottom-end"
    >
      <Button
        variant="minimal"
        icon={<User />}
        endIcon={<CaretDown />}
        loading={loggingOut}
        className="portal-welcome"
        data-tour="user-menu"
        text={`Welcome, ${firstName}`}
      />
    </Popover>
  );
}

/**
 * The top bar on a small screen: one button ('Welcome, {first name}' signed in, else 'Menu')
 * opening every link of the top bar and, signed in, the account items and logout.
 */
export function CompactMenu({ links, user, onLogout, loggingOut }: CompactMenuProps) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  return (
    <Popover
      content={
        <Menu aria-label="Main menu">
          {links.map((link) => (
            <MenuItem
              key={link.to}
              text={link.label}
              href={link.to}
              active={pathname === link.to}
              onClick={(event: MouseEvent) => {
                event.preventDefault();
                navigate(link.to);
              }}
            />
          ))}
          {user ? (
            <>
              <MenuDivider />
              <AccountItems onLogout={onLogout} loggingOut={loggingOut} />
            </>
          ) : null}
        </Menu>
      }
      placement="bottom-end"
    >
      <Button
        variant="minimal"
        icon={<MenuIcon />}
        endIcon={<CaretDown />}
        loading={loggingOut}
        className="portal-compact-menu"
        data-tour="user-menu"
        text={user ? `Welcome, ${user.firstName}` : "Menu"}
      />
    </Popover>
  );
}
