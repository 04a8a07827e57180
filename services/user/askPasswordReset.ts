import type { LimitedProps } from "./limitedProps";
import { requestPasswordReset } from "./requestPasswordReset";

/**
 * Asks for a reset link, counted per address and per email (the same answer whether or not the
 * account exists). @throws AppError RATE_LIMITED.
 */
export async function askPasswordReset(
  props: LimitedProps & { email: string },
): Promise<{ message: string }> {
  await props.limiter.consume("resetIp", props.ip);
  await props.limiter.consume("resetEmail", props.email.trim().toLowerCase());
  return requestPasswordReset({ db: props.db, email: props.email });
}
