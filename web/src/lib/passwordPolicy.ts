import { passwordLengthProblem, SPEC_MIN_PASSWORD_LENGTH } from "@schema/validation/security";
import { getQueryFn } from "@web/data/api";
import type { z } from "zod";

/** Cache key (and path) of the password minimum the security settings set. */
export const PASSWORD_POLICY_PATH = "/api/password-policy";

const getPolicy = getQueryFn<{ minLength: number }>({ on401: "throw" });

/** GET /api/password-policy. @throws Error "<status>: <body>" for a non-OK answer. */
export async function fetchPasswordPolicy(): Promise<{ minLength: number }> {
  return (await getPolicy(PASSWORD_POLICY_PATH)) ?? { minLength: SPEC_MIN_PASSWORD_LENGTH };
}

/** The shortest password `answer` allows: the server's minimum, never below the spec's 8. */
export function passwordMinLength(answer: { minLength?: number } | undefined): number {
  const min = answer?.minLength;
  return typeof min === "number" && min > SPEC_MIN_PASSWORD_LENGTH ? min : SPEC_MIN_PASSWORD_LENGTH;
}

/** The hint under a new-password field when the portal asks for more than the spec's 8 characters. */
export function passwordHint(minLength: number): string | undefined {
  return minLength > SPEC_MIN_PASSWORD_LENGTH
    ? `At least ${minLength} characters, with a number and a special character`
    : undefined;
}

/**
 * `schema` with the stored minimum checked on its `field` too ('Password must be at least {n}
 * characters'), as the server checks it.
 */
export function withPasswordMinimum<S extends z.ZodType<Record<string, unknown>>>(
  schema: S,
  field: string,
  minLength: number,
): S {
  return schema.superRefine((value, ctx) => {
    const password = value[field];
    if (typeof password !== "string") return;
    const problem = passwordLengthProblem(password, minLength);
    if (problem && password.length >= SPEC_MIN_PASSWORD_LENGTH) {
      ctx.addIssue({ code: "custom", message: problem, path: [field] });
    }
  }) as unknown as S;
}
