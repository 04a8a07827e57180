import { z } from "zod";
import { text } from "./primitives";
import { PASSWORD_MAX_LENGTH } from "./user";

// Two-factor sign-in (issue 20): one schema per request for the web forms and the server alike.

export const CODE_REQUIRED_MESSAGE = "Enter the 6-digit code from your authenticator app";
export const RECOVERY_CODE_REQUIRED_MESSAGE = "Enter one of your recovery codes";
export const PASSKEY_NAME_REQUIRED_MESSAGE = "Give the passkey a name";
export const PASSKEY_NAME_MAX = 60;
export const PASSKEY_RESPONSE_MESSAGE = "The passkey's answer is missing or malformed";

/** Six digits, spaces allowed between them (as apps show them: "123 456"). */
export const totpCodeSchema = text({ error: CODE_REQUIRED_MESSAGE })
  .transform((code) => code.replace(/\s+/g, ""))
  .pipe(z.string().regex(/^\d{6}$/, CODE_REQUIRED_MESSAGE));

/** A recovery code as typed: dashes and spaces allowed, checked by the service. */
export const recoveryCodeSchema = text({ error: RECOVERY_CODE_REQUIRED_MESSAGE })
  .trim()
  .min(1, RECOVERY_CODE_REQUIRED_MESSAGE)
  .max(64, RECOVERY_CODE_REQUIRED_MESSAGE);

/**
 * A browser's WebAuthn answer (navigator.credentials as @simplewebauthn/browser gives it as JSON):
 * an object with the credential's id; the service verifies the rest.
 */
export const passkeyResponseSchema = z
  .object({ id: text().min(1).max(1024), type: z.literal("public-key") }, { error: PASSKEY_RESPONSE_MESSAGE })
  .catchall(z.unknown());

export const passkeyNameSchema = text({ error: PASSKEY_NAME_REQUIRED_MESSAGE })
  .trim()
  .min(1, PASSKEY_NAME_REQUIRED_MESSAGE)
  .max(PASSKEY_NAME_MAX, `A passkey's name is at most ${PASSKEY_NAME_MAX} characters`);

/** POST /api/login/two-factor: the second factor of a pending sign-in. */
export const secondFactorSchema = z.discriminatedUnion(
  "method",
  [
    z.object({ method: z.literal("totp"), code: totpCodeSchema }),
    z.object({ method: z.literal("recovery_code"), code: recoveryCodeSchema }),
    z.object({ method: z.literal("passkey"), response: passkeyResponseSchema }),
  ],
  { error: 'method must be "totp", "recovery_code" or "passkey"' },
);
export type SecondFactorInput = z.output<typeof secondFactorSchema>;

/** A fresh proof of identity before a change to two-factor sign-in: the password, or a second factor. */
export const identityProofSchema = z.discriminatedUnion(
  "method",
  [
    z.object({
      method: z.literal("password"),
      password: text({ error: "Password is required" })
        .min(1, "Password is required")
        .max(PASSWORD_MAX_LENGTH, "The password is incorrect"),
    }),
    ...secondFactorSchema.options,
  ],
  { error: 'method must be "password", "totp", "recovery_code" or "passkey"' },
);
export type IdentityProofInput = z.output<typeof identityProofSchema>;

export const confirmAuthenticatorSchema = z.object({ code: totpCodeSchema });
export const newPasskeySchema = z.object({ name: passkeyNameSchema, response: passkeyResponseSchema });
export const renamePasskeySchema = z.object({ name: passkeyNameSchema });
export const passkeySignInSchema = z.object({ response: passkeyResponseSchema });
