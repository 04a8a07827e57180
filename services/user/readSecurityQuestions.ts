import type { Db } from "@services/shared/db";
import { AppError } from "@services/shared/errors";
import type { UserType } from "@services/shared/generated/prisma/enums";
import { getSecurityQuestions } from "./getSecurityQuestions";

/** Who asks for security questions: the signed-in caller, with the permissions the gateway resolved. */
export interface QuestionReader {
  id: number;
  userType: UserType;
  permissions: readonly string[];
}

/**
 * Whether `actor` may read `userId`'s security questions: themselves, or manage:users following the
 * mainAdmin rule (only a mainAdmin acts on a mainAdmin).
 */
async function mayRead(db: Db, actor: QuestionReader, userId: number): Promise<boolean> {
  if (actor.id === userId) return true;
  if (!actor.permissions.includes("manage:users")) return false;
  const target = await db.prisma.user.findUnique({ where: { id: userId }, select: { userType: true } });
  return target?.userType !== "mainAdmin" || actor.userType === "mainAdmin";
}

/**
 * A user's security questions: for themselves, manage:users (a mainAdmin's only for a mainAdmin),
 * or the user whose enhanced sign-in is pending (`pendingSignIn`, which the session knows).
 * @throws AppError UNAUTHENTICATED (nobody signed in or pending), FORBIDDEN; UserError
 * NO_SECURITY_QUESTIONS.
 */
export async function readSecurityQuestions(props: {
  db: Db;
  actor: QuestionReader | null;
  userId: number;
  pendingSignIn: boolean;
}): Promise<{ userId: number; questions: string[] }> {
  if (!props.pendingSignIn) {
    if (!props.actor) throw new AppError("UNAUTHENTICATED", "Unauthorized - Please log in");
    if (!(await mayRead(props.db, props.actor, props.userId))) {
      throw new AppError("FORBIDDEN", "You may not read these security questions");
    }
  }
  return getSecurityQuestions({ db: props.db, userId: props.userId });
}
