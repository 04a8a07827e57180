import type { User } from "@services/shared/generated/prisma/client";
import type { LimitedProps } from "./limitedProps";
import { verifyEmail } from "./verifyEmail";

/**
 * Verifies an email address with its token, counted per address. Returns the verified user.
 * @throws AppError RATE_LIMITED; UserError INVALID_VERIFICATION_TOKEN.
 */
export async function confirmEmail(props: LimitedProps & { token: string }): Promise<User> {
  await props.limiter.consume("verifyIp", props.ip);
  return verifyEmail({ db: props.db, token: props.token });
}
