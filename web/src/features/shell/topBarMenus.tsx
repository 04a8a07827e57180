import { Button, Menu, MenuDivider, MenuItem, Popover } from "@blueprintjs/core";
import {
  CaretDown,
  Desktop,
  Flash,
  Key,
  Lock,
  LogOut,
  Menu as MenuIcon,
  Moon,
  Shield,
  Tick,
  User,
} from "@blueprintjs/icons";
import type { ThemeChoice } from "@web/lib/theme";
import { THEME_CHOICES, useThemeChoice } from "@web/lib/themeChoice";
import type { MouseEvent, ReactElement } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import { isAdminPath, isCurrentAdminPage } from "./adminPages";
import { isAdminUser, type TopBarLink, type TopBarUser, userMenuItems } from "./topBarLinks";
import { useAdminPages } from "./useAdminPages";

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

const THEME_ICONS: Record<ThemeChoice, ReactElement> = {
  light: <Flash />,
  dark: <Moon />,
  system: <Desktop />,
};

/** The theme choice of the user menu (issue 21): Light, Dark or System, the chosen one ticked. */
function ThemeItems() {
  const [choice, setChoice] = useThemeChoice();
  return (
    <>
      <MenuDivider title="Theme" />
      {THEME_CHOICES.map(({ value, label }) => (
        <MenuItem
          key={value}
          role="menuitemradio"
          aria-checked={choice === value}
          aria-label={`${label} theme`}
          text={label}
          icon={THEME_ICONS[value]}
          labelElement={choice === value ? <Tick /> : undefined}
          onClick={() => setChoice(value)}
        />
      ))}
    </>
  );
}

/**
 * The items of the user menu: two-factor sign-in, security questions, change password, the theme,
 * then logout.
 */
function AccountItems({ onLogout, loggingOut }: Omit<UserMenuProps, "firstName">) {
  const navigate = useNavigate();
  const items = userMenuItems();
  const logout = items.find((item) => "action" in item);
  return (
    <>
      {items.map((item) =>
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
        ) : null,
      )}
      <ThemeItems />
      {onLogout && logout ? (
        <>
          <MenuDivider />
          <MenuItem text={logout.label} icon={<LogOut />} disabled={loggingOut} onClick={onLogout} />
        </>
      ) : null}
    </>
  );
}

/**
 * The admin pages this admin may open, by group, for the small screen's menu on an admin page: there
 * the side navigation folds into the top bar's menu (issue 21).
 */
function AdminPageItems() {
  const groups = useAdminPages();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  if (!groups) return null;
  return (
    <>
      {groups.map((group) => [
        <MenuDivider key={`group ${group.label}`} title={group.label} />,
        ...group.pages.map((page) => {
          const current = isCurrentAdminPage(page, pathname);
          return (
            <MenuItem
              key={page.path}
              text={page.label}
              aria-label={page.name}
              href={page.path}
              active={current}
              aria-current={current ? "page" : undefined}
              onClick={(event: MouseEvent) => {
                event.preventDefault();
                navigate(page.path);
              }}
            />
          );
        }),
      ])}
    </>
  );
}

/** 'Welcome, {first name}' opening a menu: the account's screens, the theme and logout. */
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
 * opening every link of the top bar, on an admin page the admin pages (the side navigation's), and,
 * signed in, the account items, the theme and logout.
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
          {user && isAdminPath(pathname) && isAdminUser(user) ? <AdminPageItems /> : null}
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
