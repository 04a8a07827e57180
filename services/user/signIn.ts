import type { Db } from "@services/shared/db";
import { type RateLimiter, reserveAll } from "@services/shared/rateLimit";
import { UserError } from "./errors";
import { findLoginAccount, type LoginOutcome, loginUser } from "./loginUser";

/** The refusals of a sign-in that are failures of the password: they keep their counted attempt. */
function isFailure(err: unknown): boolean {
  return err instanceof UserError && (err.code === "INVALID_CREDENTIALS" || err.code === "ACCOUNT_NOT_FOUND");
}

/**
 * Signs in with a username or email and a password, every attempt counted before it is checked
 * (OWASP ASVS 5.0), each count atomic so that attempts sent at once are held to the limits: the IP's
 * window, the account's backoff from everywhere (counted, but not enforced, for the owner's known
 * browser) and the account-and-IP pair's. A wrong password keeps the three; a success gives the
 * window's back and clears the backoffs (a user with a second factor: gives the three back, and the
 * backoffs clear only when the second factor holds); any other outcome (another limit refused, an inactive
 * account...) gives all three back.
 * Returns the user granted a session, or (enhanced security) the question to answer first.
 * @throws AppError RATE_LIMITED; UserError from loginUser (INVALID_CREDENTIALS, ACCOUNT_NOT_FOUND...).
 */
export async function signIn(props: {
  db: Db;
  limiter: RateLimiter;
  login: string;
  password: string;
  ip: string;
  /** whether the request comes from a browser the account signed in from before */
  knownDevice: (userId: number) => boolean;
}): Promise<LoginOutcome> {
  const { db, limiter, ip } = props;
  // a used-up IP window refuses every attempt, so the answer never tells a right password apart;
  // it is counted while the account is looked up
  const ipAttempt = limiter.consume("loginIp", ip);
  ipAttempt.catch(() => undefined);
  const account = await findLoginAccount({ db, login: props.login }).catch(async (err: unknown) => {
    await ipAttempt.then((slot) => slot.release()).catch(() => undefined);
    throw err;
  });
  const ipSlot = await ipAttempt;
  const accountKey = account ? `user:${account.id}` : `login:${props.login.trim().toLowerCase()}`;
  const pairKey = `${accountKey}|${ip}`;
  const attempt = await reserveAll([
    Promise.resolve(ipSlot),
    limiter.reserve("loginAccount", pairKey),
    // failures from everywhere slow unknown devices only: the owner's known browser is exempt
    limiter.reserve("loginAccountAny", accountKey, {
      enforce: !(account && props.knownDevice(account.id)),
    }),
  ]);
  let outcome: LoginOutcome;
  try {
    outcome = await loginUser({ db, login: props.login, password: props.password, ip, account });
  } catch (err) {
    if (!isFailure(err)) await attempt.release();
    throw err;
  }
  if (outcome.kind === "twoFactor") {
    // a right password is no failure, but the account's failures stay until the second factor
    // holds too: wrong codes count on with wrong passwords (issue 20)
    await attempt.release();
    return outcome;
  }
  await Promise.all([
    ipSlot.release(),
    limiter.succeed(["loginAccount", pairKey], ["loginAccountAny", accountKey]),
  ]);
  return outcome;
}
