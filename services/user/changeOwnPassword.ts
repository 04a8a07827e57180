import type { Db } from "@services/shared/db";
import type { User } from "@services/shared/generated/prisma/client";
import type { RateLimiter } from "@services/shared/rateLimit";
import { changePassword } from "./changePassword";
import { UserError } from "./errors";

/**
 * The signed-in user changes their password: the current one is checked under the same account
 * backoff as sign-in (from everywhere, unless from a known browser, and from this address); a wrong
 * one counts against both. Returns the user (the caller renews the session and ends the others).
 * @throws AppError RATE_LIMITED; UserError WRONG_PASSWORD, COMMON_PASSWORD.
 */
export async function changeOwnPassword(props: {
  db: Db;
  limiter: RateLimiter;
  userId: number;
  currentPassword: string;
  newPassword: string;
  ip: string;
  /** whether the request comes from a browser this account signed in from before */
  knownDevice: boolean;
}): Promise<User> {
  const { limiter } = props;
  const accountKey = `user:${props.userId}`;
  const pairKey = `${accountKey}|${props.ip}`;
  if (!props.knownDevice) await limiter.checkBackoff("loginAccountAny", accountKey);
  await limiter.checkBackoff("loginAccount", pairKey);
  let user: User;
  try {
    user = await changePassword({
      db: props.db,
      userId: props.userId,
      currentPassword: props.currentPassword,
      newPassword: props.newPassword,
      ip: props.ip,
    });
  } catch (err) {
    if (err instanceof UserError && err.code === "WRONG_PASSWORD") {
      await limiter.fail("loginAccount", pairKey);
      await limiter.fail("loginAccountAny", accountKey);
    }
    throw err;
  }
  await limiter.succeed(["loginAccount", pairKey], ["loginAccountAny", accountKey]);
  return user;
}
