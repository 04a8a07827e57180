import { passwordLengthProblem, SPEC_MIN_PASSWORD_LENGTH } from "@schema/validation/security";
import type { z } from "zod";

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
