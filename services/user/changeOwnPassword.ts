import type { Db } from "@services/shared/db";
import type { User } from "@services/shared/generated/prisma/client";
import type { RateLimiter } from "@services/shared/rateLimit";
import { attemptUnderLimits } from "./accountAttempt";
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
  // counted before the check, as a sign-in is
  return attemptUnderLimits(
    props,
    (err) => err instanceof UserError && err.code === "WRONG_PASSWORD",
    () =>
      changePassword({
        db: props.db,
        userId: props.userId,
        currentPassword: props.currentPassword,
        newPassword: props.newPassword,
        ip: props.ip,
      }),
  );
}
