import { rolePermissions } from "@schema/api/permissions";
import { routes } from "@web/routes";
import { ADMIN_PAGE_GROUPS, adminPageAt, adminPagesFor, isAdminPath, isCurrentAdminPage } from "./adminPages";

const MAIN_ADMIN = rolePermissions.mainAdmin;
const USER_ADMIN = rolePermissions.userAdmin;

const outline = (permissions: readonly string[]) =>
  adminPagesFor(permissions).map((group) => [group.label, group.pages.map((page) => page.label)]);

describe("the admin navigation's pages", () => {
  it("lists every admin route of the route table once", () => {
    const adminRoutes = routes.map((r) => r.path).filter(isAdminPath);
    const listed = ADMIN_PAGE_GROUPS.flatMap((g) => g.pages.flatMap((p) => [p.path, ...(p.aliases ?? [])]));
    expect([...listed].sort()).toEqual([...adminRoutes].sort());
  });

  it("shows a mainAdmin every group and page, in the issue's order", () => {
    expect(outline(MAIN_ADMIN)).toEqual([
      ["People", ["Dashboard", "User management", "Appointments", "Documentation"]],
      ["Pro app", ["ESRT Communication"]],
      ["Settings", ["Branding", "Security", "Storage"]],
      ["Email", ["Templates", "Settings", "Testing"]],
      ["Tools", ["Testing"]],
    ]);
  });

  it("shows a userAdmin only the pages its permissions open, and no empty group", () => {
    expect(outline(USER_ADMIN)).toEqual([
      ["People", ["Dashboard", "User management", "Appointments", "Documentation"]],
      ["Pro app", ["ESRT Communication"]],
    ]);
  });

  it("needs every permission of a route: half of Documentation's opens nothing", () => {
    expect(outline(["read:all_documents"])).toEqual([["People", ["Dashboard"]]]);
  });

  it("knows the current page, the dashboard under both its paths", () => {
    const dashboard = adminPageAt("/admin/dashboard");
    expect(dashboard?.label).toBe("Dashboard");
    expect(dashboard && isCurrentAdminPage(dashboard, "/admin")).toBe(true);
    expect(adminPageAt("/admin/email-testing")?.name).toBe("Email testing");
    expect(adminPageAt("/dashboard")).toBeUndefined();
    expect(isAdminPath("/administrator")).toBe(false);
  });
});
