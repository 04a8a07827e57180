import type { Registration } from "@schema/validation/user";
import type { Db } from "@services/shared/db";
import type { User } from "@services/shared/generated/prisma/client";
import type { RateLimiter } from "@services/shared/rateLimit";
import { registerUser } from "./registerUser";

/**
 * Registers a new account (spec §4), the address's registrations counted first.
 * @throws AppError RATE_LIMITED; UserError from registerUser.
 */
export async function signUp(props: {
  db: Db;
  limiter: RateLimiter;
  input: Registration;
  ip: string;
}): Promise<User> {
  await props.limiter.consume("register", props.ip);
  return registerUser({ db: props.db, input: props.input, ip: props.ip });
}
