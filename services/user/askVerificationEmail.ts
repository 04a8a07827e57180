import { AppError } from "@services/shared/errors";
import type { LimitedProps } from "./limitedProps";
import { resendVerification } from "./resendVerification";

/**
 * Sends a new verification link to `email` (the caller's own address when they give none), counted
 * per address and per email; the same answer whether or not an unverified account has the address.
 * @throws AppError RATE_LIMITED; VALIDATION_FAILED when there is no address.
 */
export async function askVerificationEmail(
  props: LimitedProps & { email: string | undefined },
): Promise<{ message: string }> {
  const address = props.email;
  if (!address) throw new AppError("VALIDATION_FAILED", "Please enter a valid email address");
  await props.limiter.consume("resetIp", props.ip);
  await props.limiter.consume("resetEmail", `verify:${address.trim().toLowerCase()}`);
  return resendVerification({ db: props.db, email: address });
}
