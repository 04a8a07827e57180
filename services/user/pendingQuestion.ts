import { randomInt } from "node:crypto";
import type { Db, Tx } from "@services/shared/db";

// The question an enhanced sign-in asks is drawn once per pending sign-in and kept for the user (not
// for the browser's session): until it is answered or its window ends, every correct password gets
// the same question, so that an attacker who knows one answer cannot sign in again and again until
// that question comes up (issue 20).

/** How long a pending enhanced sign-in waits for its answer, and keeps its question. */
export const PENDING_QUESTION_MS = 10 * 60 * 1000;

/** The question a pending enhanced sign-in asks, and until when it waits for the answer. */
export interface PendingQuestion {
  index: number;
  text: string;
  until: Date;
}

/**
 * The question of the user's pending enhanced sign-in: the one already drawn while its window lasts,
 * else a new one drawn now for {@link PENDING_QUESTION_MS}. One statement, so that two sign-ins at
 * once get the same question. Returns null when the user has no security questions.
 * @throws the database driver's error.
 */
export async function pinSecurityQuestion(db: Db, userId: number): Promise<PendingQuestion | null> {
  const drawn = randomInt(3);
  const [row] = await db.prisma.$queryRaw<
    { question1: string; question2: string; question3: string; index: number; until: Date }[]
  >`
    UPDATE security_questions SET
      "pendingQuestionIndex" = CASE WHEN "pendingQuestionUntil" > now() THEN "pendingQuestionIndex" ELSE ${drawn} END,
      "pendingQuestionUntil" = CASE WHEN "pendingQuestionUntil" > now() THEN "pendingQuestionUntil"
        ELSE now() + ${PENDING_QUESTION_MS}::int * interval '1 millisecond' END
    WHERE "userId" = ${userId}
    RETURNING question1, question2, question3, "pendingQuestionIndex" AS index, "pendingQuestionUntil" AS until`;
  if (!row) return null;
  const text = [row.question1, row.question2, row.question3][row.index] ?? row.question1;
  return { index: row.index, text, until: row.until };
}

/**
 * The index of the question the user's pending enhanced sign-in asked, while its window lasts; null
 * when none is pending. @throws the database driver's error.
 */
export async function pinnedQuestionIndex(db: Db, userId: number): Promise<number | null> {
  const [row] = await db.prisma.$queryRaw<{ index: number }[]>`
    SELECT "pendingQuestionIndex" AS index FROM security_questions
    WHERE "userId" = ${userId} AND "pendingQuestionUntil" > now() AND "pendingQuestionIndex" IS NOT NULL`;
  return row ? row.index : null;
}

/**
 * Ends the user's pending question (answered): the next sign-in draws anew. Raw, so that the
 * questions' updatedAt stays the time they were set. @throws the database driver's error.
 */
export async function clearPinnedQuestion(tx: Tx, userId: number): Promise<void> {
  await tx.$executeRaw`
    UPDATE security_questions SET "pendingQuestionIndex" = NULL, "pendingQuestionUntil" = NULL
    WHERE "userId" = ${userId}`;
}
