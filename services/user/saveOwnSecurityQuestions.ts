import type { Db } from "@services/shared/db";
import { AppError } from "@services/shared/errors";
import { setSecurityQuestions } from "./setSecurityQuestions";

/**
 * Saves the caller's own security questions: nobody sets them for someone else, the answers are
 * the owner's secret.
 * @throws AppError FORBIDDEN for another user's; UserError USER_NOT_FOUND.
 */
export async function saveOwnSecurityQuestions(props: {
  db: Db;
  actor: { id: number };
  userId: number;
  questions: Parameters<typeof setSecurityQuestions>[0]["questions"];
  ip: string;
}): Promise<{ message: string }> {
  if (props.actor.id !== props.userId) {
    throw new AppError("FORBIDDEN", "You may only set your own security questions");
  }
  await setSecurityQuestions({
    db: props.db,
    actorId: props.actor.id,
    userId: props.userId,
    questions: props.questions,
    ip: props.ip,
  });
  return { message: "Security questions saved" };
}
