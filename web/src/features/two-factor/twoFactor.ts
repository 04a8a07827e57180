// Words and small rules of two-factor sign-in on the web (issue 20), kept apart from the components
// so that the shell (its enrolment redirect) and the tests can use them without loading the page.

export {
  type PasskeyPurpose,
  passkeyFailureMessage,
  UNREACHABLE_MESSAGE,
} from "./passkeyMessages";
export { TWO_FACTOR_PATH } from "./path";

/** How many recovery codes a set holds (services/user RECOVERY_CODE_COUNT). */
export const RECOVERY_CODE_COUNT = 10;

/**
 * A proof this close to its end is treated as gone: the change it would allow could reach the server
 * after it ended. The server decides; a refusal asks for a new proof anyway.
 */
export const PROOF_MARGIN_MS = 15_000;

/**
 * Whether the session's proof of identity (TwoFactorStatus.confirmedUntil) still allows a change at
 * `now`, with {@link PROOF_MARGIN_MS} to spare.
 */
export function proofIsFresh(confirmedUntil: string | null | undefined, now = Date.now()): boolean {
  if (!confirmedUntil) return false;
  const until = new Date(confirmedUntil).getTime();
  return Number.isFinite(until) && until - PROOF_MARGIN_MS > now;
}

/** A mutation's typed answer, as far as a refusal goes. */
export type TypedAnswer = { __typename: string; code?: string; message?: string } | null | undefined;

/**
 * Whether a change was refused for want of a fresh proof of identity: the owner's two-factor changes
 * answer FORBIDDEN for nothing else (the session may make them, enrolling included).
 */
export function asksForProof(answer: TypedAnswer): boolean {
  return answer?.__typename === "AppError" && answer.code === "FORBIDDEN";
}

/** Recovery codes as a text file to keep: what they are, for which account, and one code a line. */
export function recoveryCodesText(props: {
  codes: readonly string[];
  portal: string;
  account: string;
  at: Date;
}): string {
  return [
    `${props.portal}: recovery codes for ${props.account}`,
    `Made ${props.at.toISOString().slice(0, 10)}. Each code signs you in once, in place of your authenticator app or passkey.`,
    "Keep them somewhere safe. Generating new codes makes these stop working.",
    "",
    ...props.codes,
    "",
  ].join("\n");
}

/** A `data:` address of a text file, for a download link that needs no script. */
export function textFileHref(text: string): string {
  return `data:text/plain;charset=utf-8,${encodeURIComponent(text)}`;
}

/** A passkey's name suggested for this browser: "Passkey on Windows", or just "Passkey". */
export function suggestedPasskeyName(platform: string | undefined): string {
  const known = ["Windows", "Mac", "iPhone", "iPad", "Android", "Linux", "Chrome OS"];
  const match = known.find((name) => platform?.toLowerCase().includes(name.toLowerCase()));
  return match ? `Passkey on ${match}` : "Passkey";
}
