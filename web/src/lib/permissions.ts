import type { PermissionCheckResult } from "@schema/api/user";
import { discardBody } from "@web/data/api";

export type { PermissionCheckResult } from "@schema/api/user";

/** Path of the permission check; cache keys of checks start with it. */
export const PERMISSION_CHECK_PATH = "/api/auth/check-permissions";

/** Spec §7/§9: permission checks are cached 60,000 ms and tried once more on failure. */
export const PERMISSION_CHECK_OPTIONS = { staleTime: 60_000, retry: 1 } as const;

/** The check's path with one repeated `permissions` parameter per required permission (none: no query). */
export function permissionCheckPath(permissions: readonly string[]): string {
  if (permissions.length === 0) return PERMISSION_CHECK_PATH;
  const query = new URLSearchParams(permissions.map((p) => ["permissions", p]));
  return `${PERMISSION_CHECK_PATH}?${query.toString()}`;
}

/** The not-admin answer used when the check cannot say yes. */
export function notAdmin(message: string): PermissionCheckResult {
  return { isAdmin: false, hasPermissions: false, exactPermissions: [], message };
}

/**
 * GET /api/auth/check-permissions (spec §7): a 401 gives not-admin with 'Unauthorized - Please log
 * in', any other non-OK status not-admin with 'Failed to check permissions: {status text}'; both are
 * logged.
 * @throws TypeError when the network fails (the cache then tries once more).
 */
export async function fetchPermissionCheck(
  permissions: readonly string[],
  fetchImpl: typeof fetch = fetch,
): Promise<PermissionCheckResult> {
  let res: Response;
  try {
    res = await fetchImpl(permissionCheckPath(permissions), {
      credentials: "include",
      headers: { Accept: "application/json" },
    });
  } catch (error) {
    console.error("Permission check failed:", error);
    throw error;
  }
  if (res.status === 401) {
    await discardBody(res);
    console.warn("Permission check: not signed in");
    return notAdmin("Unauthorized - Please log in");
  }
  if (!res.ok) {
    await discardBody(res);
    const result = notAdmin(`Failed to check permissions: ${res.statusText}`);
    console.error(result.message);
    return result;
  }
  return (await res.json()) as PermissionCheckResult;
}
