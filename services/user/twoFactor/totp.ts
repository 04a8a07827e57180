import { Secret, TOTP } from "otpauth";

// Time-based one-time codes (RFC 6238) as every authenticator app makes them: HMAC-SHA1, six digits,
// a 30-second step. A code is accepted for its own step and the steps on either side (a phone whose
// clock is up to 30 seconds off still signs in), and a step is accepted once per user: the caller
// stores the step a code matched and accepts only later ones (no replay within the window).

/** RFC 6238's step, in seconds. */
export const TOTP_PERIOD_SECONDS = 30;
/** Steps accepted on either side of the current one. */
export const TOTP_WINDOW = 1;
const DIGITS = 6;
const ALGORITHM = "SHA1";

/** A new random secret (160 bits, RFC 4226's recommendation), base32 as apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totp(secret: string, label = "", issuer = ""): TOTP {
  return new TOTP({
    issuer,
    label,
    algorithm: ALGORITHM,
    digits: DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
    issuerInLabel: issuer !== "",
  });
}

/** The otpauth:// URI an authenticator app scans from a QR code. */
export function totpUri(props: { secret: string; issuer: string; account: string }): string {
  return totp(props.secret, props.account, props.issuer).toString();
}

/** The time step of an instant. */
export function totpStepAt(at: number): number {
  return Math.floor(at / 1000 / TOTP_PERIOD_SECONDS);
}

/**
 * The time step whose code `code` is, within {@link TOTP_WINDOW} steps of `at`; null when it is
 * none of them (or not six digits). Spaces in the code are ignored.
 */
export function matchTotpStep(secret: string, code: string, at = Date.now()): number | null {
  const token = code.replace(/\s+/g, "");
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totp(secret).validate({ token, timestamp: at, window: TOTP_WINDOW });
  return delta === null ? null : totpStepAt(at) + delta;
}

/** The code of the step of `at` (tests and tools compute codes as an app would). */
export function totpCodeAt(secret: string, at = Date.now()): string {
  return totp(secret).generate({ timestamp: at });
}
