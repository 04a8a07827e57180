import { audit } from "@services/shared/audit";
import type { Db } from "@services/shared/db";
import type { User } from "@services/shared/generated/prisma/client";
import { SECURITY_VERIFICATION_FAILED_MESSAGE, UserError } from "./errors";
import { verifyPassword } from "./passwords";
import { normalizeAnswer } from "./setSecurityQuestions";

/**
 * Checks answers to a user's security questions (trimmed, case-insensitive). When `requiredIndex` is
 * given (the question asked at an enhanced login), that question must be among the answers.
 * Failures are audited.
 * @throws UserError SECURITY_VERIFICATION_FAILED on a wrong or missing answer or when the user has
 * no questions.
 */
export async function verifySecurityAnswers(props: {
  db: Db;
  userId: number;
  answers: { questionIndex: number; answer: string }[];
  requiredIndex?: number;
  ip?: string | null;
}): Promise<User> {
  const { db } = props;
  const [user, row] = await Promise.all([
    db.prisma.user.findUnique({ where: { id: props.userId } }),
    db.prisma.securityQuestions.findUnique({ where: { userId: props.userId } }),
  ]);
  const hashes = row ? [row.answer1, row.answer2, row.answer3] : [];
  const covers =
    props.requiredIndex === undefined || props.answers.some((a) => a.questionIndex === props.requiredIndex);
  let ok = user !== null && row !== null && covers && props.answers.length > 0;
  for (const a of props.answers) {
    const stored = hashes[a.questionIndex];
    if (!stored || !(await verifyPassword(stored, normalizeAnswer(a.answer)))) ok = false;
  }
  if (!ok || !user) {
    await audit(db.prisma, {
      action: "user.security_verification_failed",
      actorId: null,
      targetType: "user",
      targetId: props.userId,
      ip: props.ip,
    });
    throw new UserError("SECURITY_VERIFICATION_FAILED", SECURITY_VERIFICATION_FAILED_MESSAGE);
  }
  return user;
}
