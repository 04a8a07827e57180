import { usePermissionCheck } from "@web/data/rest";
import { type AdminPageGroup, adminPagesFor } from "./adminPages";

/**
 * The admin pages the signed-in admin may open, grouped (the permission check the admin guard and the
 * dashboard make, cached 60 s); null while it runs and for anyone who is not an admin.
 */
export function useAdminPages(): AdminPageGroup[] | null {
  const { result } = usePermissionCheck([]);
  if (!result?.isAdmin) return null;
  return adminPagesFor(result.exactPermissions);
}
