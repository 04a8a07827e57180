import { passwordSchema } from "@schema/validation/user";
import { z } from "zod";

/** A new password typed twice (reset and invitation): the same rules, and both the same. */
export const passwordPairSchema = z
  .object({ password: passwordSchema, confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, {
    message: "Passwords do not match",
    path: ["confirmPassword"],
  });

/** The values of {@link passwordPairSchema}. */
export type PasswordPair = z.input<typeof passwordPairSchema>;
