import type { Db } from "@services/shared/db";
import { AppError } from "@services/shared/errors";
import type { RateLimiter } from "@services/shared/rateLimit";
import { resendVerification } from "./resendVerification";

/**
 * Sends a new verification link to `email` (the caller's own address when they give none), counted
 * per address and per email; the same answer whether or not an unverified account has the address.
 * @throws AppError RATE_LIMITED; VALIDATION_FAILED when there is no address.
 */
export async function askVerificationEmail(props: {
  db: Db;
  limiter: RateLimiter;
  email: string | undefined;
  ip: string;
}): Promise<{ message: string }> {
  const address = props.email;
  if (!address) throw new AppError("VALIDATION_FAILED", "Please enter a valid email address");
  await props.limiter.consume("resetIp", props.ip);
  await props.limiter.consume("resetEmail", `verify:${address.trim().toLowerCase()}`);
  return resendVerification({ db: props.db, email: address });
}
