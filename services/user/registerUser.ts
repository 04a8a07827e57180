import type { Registration } from "@schema/validation/user";
import { audit } from "@services/shared/audit";
import type { Db } from "@services/shared/db";
import { emit } from "@services/shared/events";
import { type User } from "@services/shared/generated/prisma/client";
import { UserError } from "./errors";
import { newAccountFields } from "./eventContact";
import { issueToken } from "./oneTimeTokens";
import { hashPassword } from "./passwords";
import { assertPasswordAllowed } from "./securitySettings";
import { EMAIL_TAKEN_MESSAGE, rethrowTaken, takenFields, USERNAME_TAKEN_MESSAGE } from "./takenNames";
import { generateUniqueId } from "./uniqueId";

export const ADMIN_REGISTRATION_MESSAGE = "Administrator accounts are created by an administrator";

/**
 * Creates an account from a validated registration (spec §5): "client" is stored as "user" (client
 * access requested), the password hashed with argon2id, a verification token issued and
 * user.registered emitted with it sealed, all in one transaction.
 * @throws UserError ADMIN_REGISTRATION for mainAdmin/userAdmin, COMMON_PASSWORD (AppError VALIDATION_FAILED under the stored minimum length), USERNAME_TAKEN or
 * EMAIL_TAKEN (case-insensitive).
 */
export async function registerUser(props: {
  db: Db;
  input: Registration;
  ip?: string | null;
}): Promise<User> {
  const { db, input } = props;
  if (input.userType === "mainAdmin" || input.userType === "userAdmin") {
    throw new UserError("ADMIN_REGISTRATION", ADMIN_REGISTRATION_MESSAGE);
  }
  await assertPasswordAllowed({ db: db, password: input.password, field: "password" });
  const taken = await takenFields(db, input);
  if (taken.username) throw new UserError("USERNAME_TAKEN", USERNAME_TAKEN_MESSAGE);
  if (taken.email) throw new UserError("EMAIL_TAKEN", EMAIL_TAKEN_MESSAGE);

  const password = await hashPassword(input.password);
  try {
    return await db.prisma.$transaction(async (tx) => {
      const user = await tx.user.create({
        data: {
          uniqueId: generateUniqueId(),
          username: input.username,
          email: input.email,
          password,
          firstName: input.firstName,
          lastName: input.lastName,
          phone: input.phone ?? null,
          companyName: input.companyName ?? null,
          registrationNotes: input.notes ?? null,
          userType: input.userType === "client" ? "user" : "prospect",
          lastLoginAt: new Date(),
        },
      });
      const token = await issueToken(tx, { userId: user.id, purpose: "email_verification" });
      await emit(
        tx,
        {
          type: "user.registered",
          payload: {
            ...newAccountFields(user, token),
            registrationNotes: user.registrationNotes,
          },
        },
        { actor: { kind: "user", userId: user.id } },
      );
      await audit(tx, {
        action: "user.registered",
        actorId: user.id,
        targetType: "user",
        targetId: user.id,
        ip: props.ip,
      });
      return user;
    });
  } catch (err) {
    rethrowTaken(err);
  }
}
