import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/browser";

// The browser's side of passkeys (WebAuthn) through @simplewebauthn/browser, loaded when a passkey
// is first used: the server's options in, the browser's answer out, for the server to verify.

/** Whether this browser has WebAuthn at all (a secure page of a browser from the last years). */
export function passkeysAvailable(): boolean {
  return typeof window !== "undefined" && typeof window.PublicKeyCredential === "function";
}

/**
 * Asks the browser to create a passkey for the server's creation options.
 * @throws WebAuthnError (see passkeyFailureMessage) when the person or the browser declines.
 */
export async function createPasskey(options: unknown): Promise<RegistrationResponseJSON> {
  const { startRegistration } = await import("@simplewebauthn/browser");
  return startRegistration({ optionsJSON: options as PublicKeyCredentialCreationOptionsJSON });
}

/**
 * Asks the browser to sign the server's challenge with a passkey (a second factor, a proof of
 * identity, or signing in with a passkey alone).
 * @throws WebAuthnError (see passkeyFailureMessage) when the person or the browser declines.
 */
export async function signWithPasskey(options: unknown): Promise<AuthenticationResponseJSON> {
  const { startAuthentication } = await import("@simplewebauthn/browser");
  return startAuthentication({ optionsJSON: options as PublicKeyCredentialRequestOptionsJSON });
}
