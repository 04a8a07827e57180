import { hash, verify } from "@node-rs/argon2";

// argon2id with the OWASP minimum parameters (DECISIONS.md, Sessions and credentials).
// @node-rs/argon2 ships its native build inside a per-platform registry package (no install script).
// Its default algorithm is argon2id (its Algorithm enum is an ambient const enum, which isolated
// modules cannot read); passwords.test.ts checks the PHC prefix.
const OPTIONS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/**
 * Hashes a password (or a security answer) with argon2id, m=19456 KiB, t=2, p=1, into a PHC string.
 * @throws when argon2 cannot allocate its memory.
 */
export async function hashPassword(plain: string): Promise<string> {
  return hash(plain, OPTIONS);
}

/**
 * Whether `plain` matches an argon2 hash `stored`. A malformed hash counts as no match; it never throws.
 */
export async function verifyPassword(stored: string, plain: string): Promise<boolean> {
  try {
    return await verify(stored, plain);
  } catch {
    return false;
  }
}
