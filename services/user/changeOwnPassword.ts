import type { Db } from "@services/shared/db";
import type { User } from "@services/shared/generated/prisma/client";
import { type RateLimiter, reserveAll } from "@services/shared/rateLimit";
import { changePassword } from "./changePassword";
import { UserError } from "./errors";

/**
 * The signed-in user changes their password: the current one is checked under the same account
 * backoff as sign-in (from everywhere, unless from a known browser, and from this address), the
 * attempt counted before the check; a wrong one keeps its count against both. Returns the user (the caller renews the session and ends the others).
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
  // counted before the check, as a sign-in is (./signIn.ts)
  const attempt = await reserveAll([
    limiter.reserve("loginAccountAny", accountKey, { enforce: !props.knownDevice }),
    limiter.reserve("loginAccount", pairKey),
  ]);
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
    // a wrong current password keeps its count; anything else (a common new password...) gives it back
    if (!(err instanceof UserError && err.code === "WRONG_PASSWORD")) await attempt.release();
    throw err;
  }
  await limiter.succeed(["loginAccount", pairKey], ["loginAccountAny", accountKey]);
  return user;
}
