import { createHash, randomBytes } from "node:crypto";
import type { Db, Tx } from "@services/shared/db";
import type { TokenPurpose } from "@services/shared/generated/prisma/enums";

/** How long each kind of one-time token stays valid (DECISIONS.md: reset 60 min; verification 48 h; invitation 72 h). */
export const TOKEN_LIFETIME_MS: Record<TokenPurpose, number> = {
  email_verification: 48 * 60 * 60 * 1000,
  password_reset: 60 * 60 * 1000,
  invitation: 72 * 60 * 60 * 1000,
};

/** The stored form of a token: its SHA-256, hex. */
export function hashToken(raw: string): string {
  return createHash("sha256").update(raw).digest("hex");
}

/**
 * Issues a single-use token for `userId` (32 random bytes, base64url), storing only its hash. Earlier
 * unused tokens of the same purpose stop working.
 * @throws Prisma errors.
 */
export async function issueToken(
  tx: Tx,
  props: { userId: number; purpose: TokenPurpose },
): Promise<{ raw: string; expiresAt: Date }> {
  const raw = randomBytes(32).toString("base64url");
  const expiresAt = new Date(Date.now() + TOKEN_LIFETIME_MS[props.purpose]);
  await tx.oneTimeToken.updateMany({
    where: { userId: props.userId, purpose: props.purpose, usedAt: null },
    data: { usedAt: new Date() },
  });
  await tx.oneTimeToken.create({
    data: { userId: props.userId, purpose: props.purpose, tokenHash: hashToken(raw), expiresAt },
  });
  return { raw, expiresAt };
}

/**
 * Ends every live token of `userId` for each of `purposes` (marked used): a link already in a
 * mailbox stops working. A password change ends the password-setting links (reset, invitation); an
 * email change ends them too, since they went to the old address.
 * @throws Prisma errors.
 */
export async function endTokens(
  tx: Tx,
  props: { userId: number; purposes: readonly TokenPurpose[] },
): Promise<void> {
  await tx.oneTimeToken.updateMany({
    where: { userId: props.userId, purpose: { in: [...props.purposes] }, usedAt: null },
    data: { usedAt: new Date() },
  });
}

/** The links that set a password: a password or email change ends those still unused. */
export const PASSWORD_LINKS: readonly TokenPurpose[] = ["password_reset", "invitation"];

/**
 * Uses up a live token: marks it used and returns its user id, or null when the token is unknown,
 * expired, already used or of another purpose. Two concurrent uses cannot both succeed.
 * @throws Prisma errors.
 */
export async function consumeToken(
  tx: Tx,
  props: { raw: string; purpose: TokenPurpose },
): Promise<number | null> {
  const now = new Date();
  const token = await tx.oneTimeToken.findUnique({ where: { tokenHash: hashToken(props.raw) } });
  if (!token || token.purpose !== props.purpose || token.usedAt || token.expiresAt <= now) return null;
  const used = await tx.oneTimeToken.updateMany({
    where: { id: token.id, usedAt: null },
    data: { usedAt: now },
  });
  return used.count === 1 ? token.userId : null;
}

/** What setting a password with an emailed token takes (a reset, an accepted invitation). */
export interface TokenPasswordProps {
  db: Db;
  /** the raw token from the email's link */
  token: string;
  password: string;
  ip?: string | null;
}
