import { type ComponentType, type LazyExoticComponent, lazy } from "react";

/** Permission names that guard admin screens (spec §6). */
export type Permission =
  | "manage:users"
  | "manage:config"
  | "read:all_documents"
  | "approve:documents"
  | "manage:esrt_sync"
  | "manageEmails"
  | "manage:appointments";

/** Who may open a route: anyone, any signed-in user, or a user holding every listed permission. */
export type RouteAccess = "public" | "login" | { permissions: readonly Permission[] };

/** One row of the route table (spec §2). */
export interface PortalRoute {
  path: string;
  title: string;
  access: RouteAccess;
  /** client-only pages send prospects and plain users to /prospect-landing (DECISIONS "Who counts as a client") */
  clientOnly?: boolean;
  component: LazyExoticComponent<ComponentType>;
}

/** Whether `path` is a page of the admin area (a route under /admin). */
export function isAdminPath(path: string): boolean {
  return path === "/admin" || path.startsWith("/admin/");
}

/** Lazily loads the named export `name` of a page module, so each page is its own chunk. */
function page<M extends Record<string, unknown>>(
  load: () => Promise<M>,
  name: keyof M & string,
): LazyExoticComponent<ComponentType> {
  return lazy(async () => {
    const mod = await load();
    const component = mod[name];
    if (typeof component !== "function") throw new Error(`Page module has no component ${name}`);
    return { default: component as ComponentType };
  });
}

const AdminDashboard = page(() => import("./features/admin-dashboard/AdminDashboard"), "AdminDashboardPage");

/** Every route of the portal, in the order of the spec's table; the last one catches any other path. */
export const routes: readonly PortalRoute[] = [
  {
    path: "/",
    title: "Home",
    access: "public",
    component: page(() => import("./features/home/Home"), "HomePage"),
  },
  {
    path: "/auth",
    title: "Login / Register",
    access: "public",
    component: page(() => import("./features/auth/Auth"), "AuthPage"),
  },
  {
    path: "/dashboard",
    title: "Dashboard",
    access: "login",
    component: page(() => import("./features/console/Dashboard"), "DashboardPage"),
  },
  {
    path: "/preview-user-console",
    title: "Client Console Preview",
    access: "public",
    component: page(() => import("./features/console/PreviewUserConsole"), "PreviewUserConsolePage"),
  },
  {
    path: "/pro-app-features",
    title: "Pro App Features",
    access: "login",
    component: page(() => import("./features/home/ProAppFeatures"), "ProAppFeaturesPage"),
  },
  {
    path: "/appointments",
    title: "Appointments",
    access: "login",
    clientOnly: true,
    component: page(() => import("./features/appointments/Appointments"), "AppointmentsPage"),
  },
  {
    path: "/documents",
    title: "Documents",
    access: "login",
    clientOnly: true,
    component: page(() => import("./features/documents/Documents"), "DocumentsPage"),
  },
  {
    path: "/prospect-landing",
    title: "Prospect Landing",
    access: "login",
    component: page(() => import("./features/home/ProspectLanding"), "ProspectLandingPage"),
  },
  {
    path: "/two-factor",
    title: "Two-factor sign-in",
    access: "login",
    component: page(() => import("./features/two-factor/TwoFactorPage"), "TwoFactorPage"),
  },
  {
    path: "/admin/user-management",
    title: "User Management",
    access: { permissions: ["manage:users"] },
    component: page(() => import("./features/admin-users/UserManagement"), "UserManagementPage"),
  },
  {
    path: "/admin/storage",
    title: "Storage Settings",
    access: { permissions: ["manage:config"] },
    component: page(() => import("./features/settings/Storage"), "StoragePage"),
  },
  {
    path: "/admin/branding",
    title: "Branding Settings",
    access: { permissions: ["manage:config"] },
    component: page(() => import("./features/settings/Branding"), "BrandingPage"),
  },
  {
    path: "/admin/security",
    title: "Security Settings",
    access: { permissions: ["manage:config"] },
    component: page(() => import("./features/settings/Security"), "SecurityPage"),
  },
  {
    path: "/admin/testing",
    title: "Testing Tools",
    access: { permissions: ["manage:config"] },
    component: page(() => import("./features/testing/Testing"), "TestingPage"),
  },
  {
    path: "/admin/documentation",
    title: "Documentation",
    access: { permissions: ["read:all_documents", "approve:documents"] },
    component: page(() => import("./features/admin-documents/Documentation"), "DocumentationPage"),
  },
  {
    path: "/admin/esrt-communication",
    title: "ESRT Communication",
    access: { permissions: ["manage:esrt_sync"] },
    component: page(() => import("./features/sync/EsrtCommunication"), "EsrtCommunicationPage"),
  },
  {
    path: "/admin/email-templates",
    title: "Email Templates",
    access: { permissions: ["manageEmails"] },
    component: page(() => import("./features/email/templates/EmailTemplates"), "EmailTemplatesPage"),
  },
  {
    path: "/admin/email-settings",
    title: "Email Settings",
    access: { permissions: ["manageEmails"] },
    component: page(() => import("./features/email/settings/EmailSettings"), "EmailSettingsPage"),
  },
  {
    path: "/admin/email-testing",
    title: "Email Testing",
    access: { permissions: ["manageEmails"] },
    component: page(() => import("./features/email/testing/EmailTesting"), "EmailTestingPage"),
  },
  {
    path: "/admin/appointments",
    title: "Appointment Administration",
    access: { permissions: ["manage:appointments"] },
    component: page(() => import("./features/admin-appointments/AdminAppointments"), "AdminAppointmentsPage"),
  },
  {
    // the role switcher (issue 21): the page itself asks the server, which answers 404 in production
    // to everyone (the page then is the 404 page), else signed-in mainAdmins and role-switched sessions
    path: "/dev/roles",
    title: "Role Switcher",
    access: "public",
    component: page(() => import("./features/role-switcher/RoleSwitcher"), "RoleSwitcherPage"),
  },
  { path: "/admin/dashboard", title: "Admin Dashboard", access: "login", component: AdminDashboard },
  { path: "/admin", title: "Admin Dashboard", access: "login", component: AdminDashboard },
  {
    path: "*",
    title: "Page Not Found",
    access: "public",
    component: page(() => import("./features/home/NotFound"), "NotFoundPage"),
  },
];
