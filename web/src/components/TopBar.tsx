import { Alignment, Button, Classes, Menu, MenuDivider, MenuItem, Navbar, Popover } from "@blueprintjs/core";
import { CaretDown, Key, LogOut, Shield, User } from "@blueprintjs/icons";
import { NavLink, useNavigate } from "react-router-dom";
import { type TopBarUser, topBarLinks, userMenuItems } from "./topBarLinks";

/** Props of the top bar; `user` is null while signed out. */
export interface TopBarProps {
  brandTitle: string;
  user: TopBarUser | null;
  onLogout?: () => void;
  loggingOut?: boolean;
}

/** Props of the signed-in user's menu. */
interface UserMenuProps {
  firstName: string;
  onLogout?: () => void;
  loggingOut: boolean;
}

/** 'Welcome, {first name}' opening a menu: security questions, change password, logout. */
function UserMenu({ firstName, onLogout, loggingOut }: UserMenuProps) {
  const navigate = useNavigate();
  const menu = (
    <Menu aria-label="Account">
      {userMenuItems().map((item) =>
        "to" in item ? (
          <MenuItem
            key={item.label}
            text={item.label}
            icon={item.to.endsWith("security-questions") ? <Shield /> : <Key />}
            onClick={() => navigate(item.to)}
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
    </Menu>
  );
  return (
    <Popover content={menu} placement="bottom-end">
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

/** The portal's top bar: brand title linking home, the links the user may follow, and the user menu. */
export function TopBar({ brandTitle, user, onLogout, loggingOut = false }: TopBarProps) {
  return (
    <Navbar className="portal-topbar">
      <Navbar.Group align={Alignment.START}>
        <Navbar.Heading>
          <NavLink to="/" className="portal-brand" data-tour="logo">
            {brandTitle}
          </NavLink>
        </Navbar.Heading>
      </Navbar.Group>
      <Navbar.Group align={Alignment.END}>
        <nav aria-label="Main" className="portal-nav">
          {topBarLinks(user).map((link) => (
            <NavLink
              key={link.to}
              to={link.to}
              data-tour={link.tourAnchor}
              className={({ isActive }) =>
                [Classes.BUTTON, Classes.MINIMAL, isActive ? Classes.ACTIVE : ""].filter(Boolean).join(" ")
              }
            >
              {link.label}
            </NavLink>
          ))}
        </nav>
        {user ? (
          <span className="portal-user-menu">
            <Navbar.Divider />
            <UserMenu firstName={user.firstName} onLogout={onLogout} loggingOut={loggingOut} />
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
      </Navbar.Group>
    </Navbar>
  );
}
