import type { SafeUser } from "@schema/api/user";
import type { User } from "@services/shared/generated/prisma/client";

/**
 * A user as any answer may show it (schema/api/user.ts SafeUser): the stored row without its
 * password hash or reset token, plus the permissions the caller computed from the matrix.
 */
export function toSafeUser(props: { user: User; permissions: readonly string[] }): SafeUser {
  const { user } = props;
  return {
    id: user.id,
    uniqueId: user.uniqueId,
    username: user.username,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    phone: user.phone,
    companyName: user.companyName,
    userType: user.userType,
    notes: user.notes,
    createdAt: user.createdAt.toISOString(),
    lastLoginAt: user.lastLoginAt ? user.lastLoginAt.toISOString() : null,
    accessLevel: user.accessLevel,
    esrtSynced: user.esrtSynced,
    userStatus: user.userStatus,
    emailVerified: user.emailVerified,
    securityQuestionsSet: user.securityQuestionsSet,
    securityLevel: user.securityLevel,
    permissions: [...props.permissions],
  };
}
