import type { Db } from "@services/shared/db";
import { AppError } from "@services/shared/errors";
import type { RateLimiter } from "@services/shared/rateLimit";
import { UserError } from "./errors";
import { findLoginAccount, type LoginOutcome, loginUser } from "./loginUser";

/**
 * Signs in with a username or email and a password, every attempt counted before it is checked
 * (OWASP ASVS 5.0): the IP's window, the account's backoff from everywhere (which the owner's known
 * browser skips) and the account-and-IP pair's. A refused password counts against all three.
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
  // a used-up IP window refuses every attempt, so the answer never tells a right password apart
  const [account] = await Promise.all([
    findLoginAccount({ db, login: props.login }),
    limiter.check("loginIp", ip),
  ]);
  const accountKey = account ? `user:${account.id}` : `login:${props.login.trim().toLowerCase()}`;
  const pairKey = `${accountKey}|${ip}`;
  await Promise.all([
    // failures from everywhere slow unknown devices only: the owner's known browser is exempt
    account && props.knownDevice(account.id)
      ? undefined
      : limiter.checkBackoff("loginAccountAny", accountKey),
    limiter.checkBackoff("loginAccount", pairKey),
  ]);
  let outcome: LoginOutcome;
  try {
    outcome = await loginUser({ db, login: props.login, password: props.password, ip, account });
  } catch (err) {
    if (
      err instanceof UserError &&
      (err.code === "INVALID_CREDENTIALS" || err.code === "ACCOUNT_NOT_FOUND")
    ) {
      await limiter.fail("loginAccount", pairKey);
      await limiter.fail("loginAccountAny", accountKey);
      // this failure is answered as it is; the used-up window refuses the next attempt
      await limiter.consume("loginIp", ip).catch((limitErr: unknown) => {
        if (!(limitErr instanceof AppError && limitErr.code === "RATE_LIMITED")) throw limitErr;
      });
    }
    throw err;
  }
  await limiter.succeed(["loginAccount", pairKey], ["loginAccountAny", accountKey]);
  return outcome;
}
