import { idSchema } from "@schema/validation/primitives";
import type { Db } from "@services/shared/db";
import { UserError } from "./errors";

/**
 * A user's three security questions, without the answers. A userId outside the database's range (the
 * shared idSchema) names nobody and never reaches the database.
 * @throws UserError NO_SECURITY_QUESTIONS when the user has none.
 */
export async function getSecurityQuestions(props: {
  db: Db;
  userId: number;
}): Promise<{ userId: number; questions: string[] }> {
  if (!idSchema.safeParse(props.userId).success) {
    throw new UserError("NO_SECURITY_QUESTIONS", "No security questions are set for this user");
  }
  const row = await props.db.prisma.securityQuestions.findUnique({ where: { userId: props.userId } });
  if (!row) throw new UserError("NO_SECURITY_QUESTIONS", "No security questions are set for this user");
  return { userId: row.userId, questions: [row.question1, row.question2, row.question3] };
}
