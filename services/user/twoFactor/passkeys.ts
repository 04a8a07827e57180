import type { Db, Tx } from "@services/shared/db";
import type { Passkey } from "@services/shared/generated/prisma/client";
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { getPublicBranding } from "../getPublicBranding";

type WebAuthn = typeof import("@simplewebauthn/server");
let loaded: Promise<WebAuthn> | undefined;

/**
 * @simplewebauthn/server (with its ASN.1 and COSE parsers, about a second to load), loaded by the
 * first passkey ceremony rather than by every process that starts the user service.
 */
function webAuthn(): Promise<WebAuthn> {
  loaded ??= import("@simplewebauthn/server") as unknown as Promise<WebAuthn>;
  return loaded;
}

// Passkeys (WebAuthn Level 3) through @simplewebauthn/server: the portal is the relying party named
// by its public address. Registration asks for a discoverable credential (a passkey can sign in
// without a username) and no attestation; user verification is preferred, not required, so that a
// security key without a PIN still serves as a second factor.

/** The relying party: the portal's host name (the RP ID) and its origin. */
export interface RelyingParty {
  id: string;
  origin: string;
}

/** How long a browser has to answer a WebAuthn ceremony. */
export const CEREMONY_TIMEOUT_MS = 5 * 60 * 1000;

/** A passkey as its owner sees it. */
export interface PasskeyView {
  id: number;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  /** synced by a passkey provider (iCloud Keychain, Google Password Manager...) */
  backedUp: boolean;
}

export function passkeyView(p: Passkey): PasskeyView {
  return { id: p.id, name: p.name, createdAt: p.createdAt, lastUsedAt: p.lastUsedAt, backedUp: p.backedUp };
}

/** The user's passkeys as WebAuthn options name them: their ids and how they are reached. */
async function credentialsOf(db: Db, userId: number): Promise<{ id: string; transports: string[] }[]> {
  const rows = await db.prisma.passkey.findMany({
    where: { userId },
    select: { credentialId: true, transports: true },
  });
  return rows.map((c) => ({ id: c.credentialId, transports: c.transports }));
}

/** The options of a new passkey for `user`, its existing ones excluded. */
export async function registrationOptions(props: {
  db: Db;
  rp: RelyingParty;
  user: { id: number; uniqueId: string; email: string; firstName: string; lastName: string };
}): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const existing = await credentialsOf(props.db, props.user.id);
  const { generateRegistrationOptions } = await webAuthn();
  return generateRegistrationOptions({
    // the name a new passkey is saved under: the branding's title (read only when one is made)
    rpName: (await getPublicBranding({ db: props.db })).title,
    rpID: props.rp.id,
    userName: props.user.email,
    userDisplayName: `${props.user.firstName} ${props.user.lastName}`.trim(),
    // the user handle: the portal's public id, never the database id or the email
    userID: new TextEncoder().encode(props.user.uniqueId),
    attestationType: "none",
    timeout: CEREMONY_TIMEOUT_MS,
    excludeCredentials: existing,
    authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
  });
}

/** What a verified registration gives to store. */
export interface NewCredential {
  credentialId: string;
  publicKey: Uint8Array;
  counter: number;
  transports: string[];
  backedUp: boolean;
}

/** What a browser's answer must have been made for: the challenge it was given, this origin and RP. */
function expectedFrom(rp: RelyingParty, challenge: string) {
  return { expectedChallenge: challenge, expectedOrigin: rp.origin, expectedRPID: rp.id };
}

/**
 * Checks a browser's answer to {@link registrationOptions} against the challenge it was given.
 * Returns null when it does not hold (wrong challenge, origin or RP, malformed).
 */
export async function verifyRegistration(props: {
  rp: RelyingParty;
  response: unknown;
  challenge: string;
}): Promise<NewCredential | null> {
  const { verifyRegistrationResponse } = await webAuthn();
  try {
    const result = await verifyRegistrationResponse({
      response: props.response as RegistrationResponseJSON,
      ...expectedFrom(props.rp, props.challenge),
      requireUserVerification: false,
    });
    if (!result.verified) return null;
    const { credential, credentialBackedUp } = result.registrationInfo;
    return {
      credentialId: credential.id,
      publicKey: credential.publicKey,
      counter: credential.counter,
      transports: credential.transports ?? [],
      backedUp: credentialBackedUp,
    };
  } catch {
    return null;
  }
}

/**
 * The options of a passkey assertion: for `userId`'s passkeys (a second factor, a fresh proof), or
 * for any discoverable passkey (signing in without a password) when no user is given.
 */
export async function assertionOptions(props: {
  db: Db;
  rp: RelyingParty;
  userId?: number;
}): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const allow = props.userId === undefined ? undefined : await credentialsOf(props.db, props.userId);
  const { generateAuthenticationOptions } = await webAuthn();
  return generateAuthenticationOptions({
    rpID: props.rp.id,
    allowCredentials: allow,
    // without a password, the passkey is both factors: it must verify its user (PIN, biometrics)
    userVerification: props.userId === undefined ? "required" : "preferred",
    timeout: CEREMONY_TIMEOUT_MS,
  });
}

/** The credential id an assertion names, when it has the shape of one. */
function credentialIdOf(response: unknown): string | null {
  if (typeof response !== "object" || response === null) return null;
  const id: unknown = Reflect.get(response, "id");
  return typeof id === "string" && id.length > 0 && id.length <= 1024 ? id : null;
}

/**
 * Checks a passkey assertion against its challenge, in the caller's transaction: the passkey must
 * exist (and be `userId`'s, when given; without a user, as the only factor, it must have verified
 * its user), the signature hold and the counter move forward (a cloned
 * authenticator shows as a counter that does not). Stamps its counter and last use. Returns the
 * passkey, or null when the assertion does not hold.
 */
export async function spendAssertion(
  tx: Tx,
  props: { rp: RelyingParty; response: unknown; challenge: string; userId?: number },
): Promise<Passkey | null> {
  const credentialId = credentialIdOf(props.response);
  if (!credentialId) return null;
  const passkey = await tx.passkey.findUnique({ where: { credentialId } });
  if (!passkey || (props.userId !== undefined && passkey.userId !== props.userId)) return null;
  const { verifyAuthenticationResponse } = await webAuthn();
  try {
    const result = await verifyAuthenticationResponse({
      response: props.response as AuthenticationResponseJSON,
      ...expectedFrom(props.rp, props.challenge),
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(passkey.publicKey),
        counter: Number(passkey.counter),
        transports: passkey.transports,
      },
      requireUserVerification: props.userId === undefined,
    });
    if (!result.verified) return null;
    // the counter moves only forward; two requests with one assertion update it once
    const { count } = await tx.passkey.updateMany({
      where: {
        id: passkey.id,
        counter:
          result.authenticationInfo.newCounter === 0 ? 0 : { lt: result.authenticationInfo.newCounter },
      },
      data: { counter: result.authenticationInfo.newCounter, lastUsedAt: new Date() },
    });
    return count === 1 ? passkey : null;
  } catch {
    return null;
  }
}
