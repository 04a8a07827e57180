// What the sign-in page and the two-factor page say when a passkey or a request fails, apart from
// the rest of ./twoFactor so that the first page (/auth) loads only these words.

/** What a change says when the request did not reach the portal. */
export const UNREACHABLE_MESSAGE = "The portal could not be reached. Check your connection and try again.";

/** What the browser's passkey prompt was asked to do. */
export type PasskeyPurpose = "add" | "use";

/**
 * Why a passkey ceremony in the browser did not give an answer, in the portal's words: cancelled
 * or timed out, a passkey the account holds already, an address passkeys do not work on, or a
 * browser without passkeys.
 */
export function passkeyFailureMessage(error: unknown, purpose: PasskeyPurpose): string {
  const name = error instanceof Error ? error.name : "";
  const code =
    typeof error === "object" && error !== null && "code" in error ? String(Reflect.get(error, "code")) : "";
  if (code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED" || name === "InvalidStateError") {
    return "This passkey is already registered with your account.";
  }
  if (name === "NotAllowedError" || name === "AbortError" || code === "ERROR_CEREMONY_ABORTED") {
    return purpose === "add"
      ? "No passkey was created: the browser's prompt was closed or timed out."
      : "No passkey was used: the browser's prompt was closed or timed out.";
  }
  if (name === "SecurityError" || code === "ERROR_INVALID_DOMAIN" || code === "ERROR_INVALID_RP_ID") {
    return "Passkeys work only on the portal's own address over HTTPS.";
  }
  if (name === "NotSupportedError" || code.startsWith("ERROR_AUTHENTICATOR_")) {
    return "This device has no passkey support the portal can use.";
  }
  return purpose === "add" ? "The passkey could not be created." : "The passkey could not be used.";
}
