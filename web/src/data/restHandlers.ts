import { CURRENT_USER_OPTIONS, fetchCurrentUser } from "@web/lib/auth";
import { fetchBranding } from "@web/lib/branding";
import { fetchPasswordPolicy } from "@web/lib/passwordMinimum";
import { fetchPermissionCheck, PERMISSION_CHECK_OPTIONS } from "@web/lib/permissions";
import { fetchServerConfig } from "@web/lib/serverConfig";
import { apiRequest, discardBody, type HttpMethod } from "./api";
import type { RestHandlers } from "./restLink";

/** One REST call of a mutation: the request, and whether the answer is read as JSON or dropped. */
export interface RestRequest {
  method: HttpMethod;
  path: string;
  body?: unknown;
  /** "json" (default) parses the answer; "discard" reads and drops it (spec §7: logout) */
  read?: "json" | "discard";
}

/** Sends `request` (spec §7 error format) and resolves with its JSON answer, or null when dropped. */
export async function sendRestRequest(request: RestRequest): Promise<unknown> {
  const res = await apiRequest(request.method, request.path, request.body);
  if (request.read === "discard") {
    await discardBody(res);
    return null;
  }
  return res.json();
}

/** The typename the public branding is normalised under, shared with the GraphQL branding settings. */
export const BRANDING_TYPENAME = "BrandingSettings";

/**
 * The endpoints the `@rest` fields of web/src/data/rest.ts stand for (spec §7), with the spec's retry
 * counts: the current user and permission checks 1, everything else none.
 */
export const REST_HANDLERS: RestHandlers = {
  currentUser: { run: () => fetchCurrentUser(), retry: CURRENT_USER_OPTIONS.retry },
  branding: { run: async () => ({ __typename: BRANDING_TYPENAME, ...(await fetchBranding()) }) },
  permissionCheck: {
    run: ({ permissions }) => fetchPermissionCheck((permissions as string[] | undefined) ?? []),
    retry: PERMISSION_CHECK_OPTIONS.retry,
  },
  serverConfig: { run: () => fetchServerConfig() },
  passwordPolicy: { run: () => fetchPasswordPolicy() },
  userByUniqueId: {
    run: ({ uniqueId }) =>
      sendRestRequest({
        method: "GET",
        path: `/api/users/by-uniqueid/${encodeURIComponent(String(uniqueId))}`,
      }),
  },
  send: { run: ({ request }) => sendRestRequest(request as RestRequest) },
};
