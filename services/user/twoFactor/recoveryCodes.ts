import { createHash, randomBytes } from "node:crypto";
import type { Tx } from "@services/shared/db";

// Ten single-use recovery codes, shown once and stored as sha256 digests. Each code holds 80 random
// bits (16 base32 characters, shown in four groups), far past what a fast hash could let an
// attacker with the table search, so a slow password hash would add nothing (docs/DECISIONS.md).

export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"; // 32 characters, no 0/o or 1/l lookalikes

/** One new code, e.g. "k7wq-3hzm-pc9t-x2re". */
function newCode(): string {
  const bytes = randomBytes(16);
  const chars = [...bytes].map((b) => ALPHABET[b % 32]).join("");
  return chars.match(/.{4}/g)?.join("-") ?? chars;
}

/** A code as typed, reduced to what is compared: lower case, no spaces or dashes. */
export function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]+/g, "");
}

/** Whether a typed code has the shape of a recovery code (16 of the alphabet's characters). */
export function looksLikeRecoveryCode(code: string): boolean {
  const plain = normalizeRecoveryCode(code);
  return plain.length === 16 && [...plain].every((c) => ALPHABET.includes(c));
}

function digest(code: string): string {
  return createHash("sha256").update(normalizeRecoveryCode(code)).digest("hex");
}

/**
 * Replaces the user's recovery codes with ten new ones, in the caller's transaction. Returns them:
 * the only time they are readable.
 */
export async function replaceRecoveryCodes(tx: Tx, userId: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  await tx.recoveryCode.deleteMany({ where: { userId } });
  await tx.recoveryCode.createMany({ data: codes.map((code) => ({ userId, codeHash: digest(code) })) });
  return codes;
}

/**
 * Spends one of the user's unused recovery codes; false when `code` is none of them. Atomic: two
 * requests with the same code spend it once.
 */
export async function spendRecoveryCode(tx: Tx, userId: number, code: string): Promise<boolean> {
  if (!looksLikeRecoveryCode(code)) return false;
  const { count } = await tx.recoveryCode.updateMany({
    where: { userId, codeHash: digest(code), usedAt: null },
    data: { usedAt: new Date() },
  });
  return count === 1;
}
