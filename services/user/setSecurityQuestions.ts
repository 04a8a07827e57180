import { audit } from "@services/shared/audit";
import type { Db } from "@services/shared/db";
import { emit } from "@services/shared/events";
import { UserError } from "./errors";
import { hashPassword } from "./passwords";

/** How answers are compared: trimmed and case-insensitively (DECISIONS.md). */
export function normalizeAnswer(answer: string): string {
  return answer.trim().toLowerCase();
}

/**
 * Saves a user's three security questions with their answers hashed (argon2id of the trimmed,
 * lower-cased answer), marks securityQuestionsSet and emits user.security_questions_set.
 * The caller has checked that the actor may do this for `userId`.
 * @throws UserError USER_NOT_FOUND.
 */
export async function setSecurityQuestions(props: {
  db: Db;
  actorId: number;
  userId: number;
  questions: { question: string; answer: string }[];
  ip?: string | null;
}): Promise<void> {
  const [q1, q2, q3] = props.questions;
  if (!q1 || !q2 || !q3) throw new UserError("NOT_ALLOWED", "Exactly three security questions are required");
  const [a1, a2, a3] = await Promise.all([q1, q2, q3].map((q) => hashPassword(normalizeAnswer(q.answer))));
  await props.db.prisma.$transaction(async (tx) => {
    const exists = await tx.user.findUnique({ where: { id: props.userId }, select: { id: true } });
    if (!exists) throw new UserError("USER_NOT_FOUND", "User not found");
    const data = {
      question1: q1.question,
      question2: q2.question,
      question3: q3.question,
      answer1: a1 ?? "",
      answer2: a2 ?? "",
      answer3: a3 ?? "",
    };
    await tx.securityQuestions.upsert({
      where: { userId: props.userId },
      create: { userId: props.userId, ...data },
      update: data,
    });
    const user = await tx.user.update({
      where: { id: props.userId },
      data: { securityQuestionsSet: true, version: { increment: 1 } },
    });
    await emit(
      tx,
      {
        type: "user.security_questions_set",
        payload: { userId: user.id, uniqueId: user.uniqueId, userVersion: user.version },
      },
      { actor: { kind: props.actorId === props.userId ? "user" : "admin", userId: props.actorId } },
    );
    await audit(tx, {
      action: "user.security_questions_set",
      actorId: props.actorId,
      targetType: "user",
      targetId: user.id,
      ip: props.ip,
    });
  });
}
