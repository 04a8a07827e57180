import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from "node:crypto";
import { isoBase64URL, isoCBOR } from "@simplewebauthn/server/helpers";

// A passkey authenticator in software for API tests (the browser tests use Chromium's virtual
// authenticator): it answers WebAuthn creation and request options with the JSON a browser gives
// (@simplewebauthn/browser's shape), with "none" attestation and ES256 keys, as a platform
// authenticator that verifies its user would. Its flags and counter can be set to test refusals.

interface Credential {
  id: Uint8Array<ArrayBuffer>;
  privateKey: KeyObject;
  userHandle: string;
  counter: number;
}

const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();

/** Big-endian 32-bit counter. */
function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}

export class SoftAuthenticator {
  private readonly credentials: Credential[] = [];
  /** whether answers say the user was verified (PIN, biometrics) */
  userVerified = true;

  constructor(private readonly origin: string) {}

  private get rpId(): string {
    return new URL(this.origin).hostname;
  }

  private clientData(type: string, challenge: string, origin = this.origin): string {
    return isoBase64URL.fromUTF8String(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  private flags(attested: boolean): number {
    // UP (0x01), UV (0x04), BE/BS (0x08/0x10: a synced passkey), AT (0x40)
    return 0x01 | (this.userVerified ? 0x04 : 0) | 0x08 | 0x10 | (attested ? 0x40 : 0);
  }

  /** Answers navigator.credentials.create() for `options` (PublicKeyCredentialCreationOptionsJSON). */
  create(options: { challenge: string; rp: { id?: string }; user: { id: string } }, origin?: string) {
    const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const jwk = publicKey.export({ format: "jwk" });
    const id = new Uint8Array(randomBytes(16));
    const credential: Credential = { id, privateKey, userHandle: options.user.id, counter: 0 };
    this.credentials.push(credential);
    const cose = new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, isoBase64URL.toBuffer(jwk.x ?? "")],
      [-3, isoBase64URL.toBuffer(jwk.y ?? "")],
    ]);
    const authData = Buffer.concat([
      sha256(options.rp.id ?? this.rpId),
      Buffer.from([this.flags(true)]),
      u32(credential.counter),
      Buffer.alloc(16), // AAGUID
      Buffer.from([0, id.length]),
      Buffer.from(id),
      Buffer.from(isoCBOR.encode(cose)),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", new Uint8Array(authData)],
      ]) as never,
    );
    const credentialId = isoBase64URL.fromBuffer(id);
    return {
      id: credentialId,
      rawId: credentialId,
      type: "public-key",
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
      response: {
        clientDataJSON: this.clientData("webauthn.create", options.challenge, origin),
        attestationObject: isoBase64URL.fromBuffer(attestationObject),
        transports: ["internal"],
      },
    };
  }

  /**
   * Answers navigator.credentials.get() for `options` with the credential named in its allow list
   * (or, for a discoverable request, the last one created), its counter moved on by `step`.
   */
  get(
    options: { challenge: string; rpId?: string; allowCredentials?: { id: string }[] },
    { step = 1, credential }: { step?: number; credential?: number } = {},
  ) {
    const allowed = options.allowCredentials?.map((c) => c.id) ?? [];
    const chosen =
      credential !== undefined
        ? this.credentials[credential]
        : allowed.length > 0
          ? this.credentials.find((c) => allowed.includes(isoBase64URL.fromBuffer(c.id)))
          : this.credentials.at(-1);
    if (!chosen) throw new Error("no credential for these options");
    chosen.counter += step;
    const authenticatorData = Buffer.concat([
      sha256(options.rpId ?? this.rpId),
      Buffer.from([this.flags(false)]),
      u32(chosen.counter),
    ]);
    const clientDataJSON = this.clientData("webauthn.get", options.challenge);
    const signature = sign(
      "sha256",
      Buffer.concat([authenticatorData, sha256(isoBase64URL.toBuffer(clientDataJSON))]),
      chosen.privateKey,
    );
    const id = isoBase64URL.fromBuffer(chosen.id);
    return {
      id,
      rawId: id,
      type: "public-key",
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
      response: {
        clientDataJSON,
        authenticatorData: isoBase64URL.fromBuffer(authenticatorData),
        signature: isoBase64URL.fromBuffer(signature),
        userHandle: chosen.userHandle,
      },
    };
  }
}
