import type { Registration } from "@schema/validation/user";
import type { User } from "@services/shared/generated/prisma/client";
import type { LimitedProps } from "./limitedProps";
import { registerUser } from "./registerUser";

/**
 * Registers a new account (spec §4), the address's registrations counted first.
 * @throws AppError RATE_LIMITED; UserError from registerUser.
 */
export async function signUp(props: LimitedProps & { input: Registration }): Promise<User> {
  await props.limiter.consume("register", props.ip);
  return registerUser({ db: props.db, input: props.input, ip: props.ip });
}
