import type { User } from "@services/shared/generated/prisma/client";
import type { LimitedProps } from "./limitedProps";
import { resetPassword } from "./resetPassword";

/**
 * Sets a new password with a reset token, counted per address; whoever holds the emailed link is the
 * owner, so the account's sign-in backoff from everywhere is cleared. Returns the user (the caller
 * ends their sessions).
 * @throws AppError RATE_LIMITED; UserError INVALID_RESET_TOKEN, COMMON_PASSWORD.
 */
export async function confirmPasswordReset(
  props: LimitedProps & { token: string; password: string },
): Promise<User> {
  await props.limiter.consume("verifyIp", props.ip);
  const user = await resetPassword({
    db: props.db,
    token: props.token,
    password: props.password,
    ip: props.ip,
  });
  // whoever holds the emailed link is the owner: their sign-in is not slowed by others' failures
  await props.limiter.succeed(["loginAccountAny", `user:${user.id}`]);
  return user;
}
