import { getQueryFn } from "@web/data/api";

// The password minimum the security settings set, read by the first page: kept apart from
// ./passwordPolicy (which builds zod schemas) so zod does not load with the sign-in page.

/** The spec's minimum (spec §5), the same as SPEC_MIN_PASSWORD_LENGTH of schema/validation/security.ts. */
export const SPEC_MINIMUM = 8;

/** Cache key (and path) of the password minimum the security settings set. */
export const PASSWORD_POLICY_PATH = "/api/password-policy";

const getPolicy = getQueryFn<{ minLength: number }>({ on401: "throw" });

/** GET /api/password-policy. @throws Error "<status>: <body>" for a non-OK answer. */
export async function fetchPasswordPolicy(): Promise<{ minLength: number }> {
  return (await getPolicy(PASSWORD_POLICY_PATH)) ?? { minLength: SPEC_MINIMUM };
}

/** The shortest password `answer` allows: the server's minimum, never below the spec's 8. */
export function passwordMinLength(answer: { minLength?: number } | undefined): number {
  const min = answer?.minLength;
  return typeof min === "number" && min > SPEC_MINIMUM ? min : SPEC_MINIMUM;
}
