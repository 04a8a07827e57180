import { type RateLimiter, type Reservation, reserveAll } from "@services/shared/rateLimit";

/**
 * Runs one check of a known account's secret (a current password, a second factor) under the
 * sign-in limits, counted before the check as a sign-in is (./signIn.ts): the account from this
 * address, the account from anywhere (not enforced for the owner's known browser) and, with
 * `ipWindow`, the address's window. A failure (`isFailure` of what `check` threw) keeps its count;
 * a success clears the account's backoffs and gives the window's attempt back; anything else
 * gives every count back.
 * @throws AppError RATE_LIMITED, UNAVAILABLE; what `check` throws.
 */
export async function attemptUnderLimits<T>(
  props: {
    limiter: RateLimiter;
    userId: number;
    ip: string;
    knownDevice: boolean;
    ipWindow?: boolean;
  },
  isFailure: (err: unknown) => boolean,
  check: () => Promise<T>,
): Promise<T> {
  const { limiter } = props;
  const accountKey = `user:${props.userId}`;
  const pairKey = `${accountKey}|${props.ip}`;
  const ipAttempt: Promise<Reservation> | null = props.ipWindow ? limiter.consume("loginIp", props.ip) : null;
  const attempt = await reserveAll([
    ...(ipAttempt ? [ipAttempt] : []),
    limiter.reserve("loginAccountAny", accountKey, { enforce: !props.knownDevice }),
    limiter.reserve("loginAccount", pairKey),
  ]);
  let result: T;
  try {
    result = await check();
  } catch (err) {
    if (!isFailure(err)) await attempt.release();
    throw err;
  }
  await Promise.all([
    ipAttempt?.then((slot) => slot.release()),
    limiter.succeed(["loginAccount", pairKey], ["loginAccountAny", accountKey]),
  ]);
  return result;
}
