/** The user kinds of the portal (spec §3). */
export type UserType = "user" | "prospect" | "client" | "mainAdmin" | "userAdmin";

/** What the top bar needs to know about the signed-in user; null when signed out. */
export interface TopBarUser {
  firstName: string;
  userType: UserType;
}

/** Whether `user` is one of the firm's administrators (mainAdmin or userAdmin). */
export function isAdminUser(user: TopBarUser): boolean {
  return user.userType === "mainAdmin" || user.userType === "userAdmin";
}

/** One navigation link of the top bar. */
export interface TopBarLink {
  to: string;
  label: string;
  /** the guided tour's anchor on this link, if it has one */
  tourAnchor?: string;
}

/** Which links the top bar shows to `user` (spec §2 "Top bar"), left to right. */
export function topBarLinks(user: TopBarUser | null): TopBarLink[] {
  const links: TopBarLink[] = [];
  if (user) links.push({ to: "/dashboard", label: "Dashboard", tourAnchor: "dashboard-link" });
  if (user && isAdminUser(user)) {
    links.push({ to: "/admin", label: "Admin Dashboard" });
  }
  links.push({ to: "/pro-app-features", label: "Pro App Features" });
  if (!user) links.push({ to: "/auth", label: "Login / Register" });
  return links;
}

/** One item of the signed-in user's menu: a page of /auth, or logging out. */
export type UserMenuItem = { label: string; to: string } | { label: "Logout"; action: "logout" };

/** The items of the top bar's user menu, top to bottom: account screens, then logout. */
export function userMenuItems(): UserMenuItem[] {
  return [
    { label: "Two-factor sign-in", to: "/two-factor" },
    { label: "Security questions", to: "/auth?mode=security-questions" },
    { label: "Change password", to: "/auth?mode=change-password" },
    { label: "Logout", action: "logout" },
  ];
}
