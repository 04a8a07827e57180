import type { User } from "@services/shared/generated/prisma/client";
import { seal } from "@services/shared/sealed";
import { syncSnapshot } from "./syncSnapshot";

/** The fields of a user that user events carry to address them (schema/events/user.ts `contact`). */
export function eventContact(user: {
  id: number;
  uniqueId: string;
  email: string;
  firstName: string;
  lastName: string;
}): { userId: number; uniqueId: string; email: string; firstName: string; lastName: string } {
  return {
    userId: user.id,
    uniqueId: user.uniqueId,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
  };
}

/**
 * What the event of a new account carries (user.registered, user.invited): whom to address, the
 * sync snapshot, and the one-time token sealed for the email's link, with its expiry.
 */
export function newAccountFields(user: User, token: { raw: string; expiresAt: Date }) {
  return {
    ...eventContact(user),
    username: user.username,
    userType: user.userType,
    companyName: user.companyName,
    userVersion: user.version,
    snapshot: syncSnapshot(user),
    ...sealedToken(token),
  };
}

/** A one-time token sealed for an email's link, with its expiry. */
export function sealedToken(token: { raw: string; expiresAt: Date }): {
  sealedToken: string;
  tokenExpiresAt: string;
} {
  return { sealedToken: seal(token.raw), tokenExpiresAt: token.expiresAt.toISOString() };
}

/** What the event asking for a token email carries (a password reset, a new verification link). */
export function tokenEmailFields(
  user: Pick<User, "id" | "email" | "firstName">,
  token: { raw: string; expiresAt: Date },
) {
  return { userId: user.id, email: user.email, firstName: user.firstName, ...sealedToken(token) };
}
