import type { Db } from "@services/shared/db";
import { AppError } from "@services/shared/errors";
import type { User } from "@services/shared/generated/prisma/client";
import type { RateLimiter } from "@services/shared/rateLimit";
import { SECURITY_VERIFICATION_FAILED_MESSAGE, UserError } from "./errors";
import { recordLogin } from "./loginUser";
import { clearPinnedQuestion, pinnedQuestionIndex } from "./pendingQuestion";
import { verifySecurityAnswers } from "./verifySecurityAnswers";

/**
 * Checks security answers under the user's backoff: completes a pending enhanced sign-in (the
 * sign-in recorded, the user returned to be granted a session), or confirms a signed-in user's
 * identity.
 * @throws AppError UNAUTHENTICATED (neither pending nor the caller), RATE_LIMITED; UserError
 * SECURITY_VERIFICATION_FAILED.
 */
export async function answerSecurityQuestions(props: {
  db: Db;
  limiter: RateLimiter;
  userId: number;
  answers: Parameters<typeof verifySecurityAnswers>[0]["answers"];
  /** the signed-in caller's id, if any */
  callerId: number | undefined;
  /** whether the caller's session passed the password of this user's pending enhanced sign-in */
  pending: boolean;
  ip: string;
}): Promise<{ kind: "signedIn"; user: User } | { kind: "verified" }> {
  const { db, limiter, pending } = props;
  if (!pending && props.callerId !== props.userId) {
    throw new AppError("UNAUTHENTICATED", "Security verification failed");
  }
  const key = String(props.userId);
  // counted before the answers are checked, so that answers sent at once are held to the backoff
  const attempt = await limiter.reserve("securityAnswers", key);
  try {
    // the question the pending sign-in asked, kept for the user (a session cannot pick another)
    const asked = pending ? await pinnedQuestionIndex(db, props.userId) : undefined;
    if (asked === null)
      throw new UserError("SECURITY_VERIFICATION_FAILED", SECURITY_VERIFICATION_FAILED_MESSAGE);
    await verifySecurityAnswers({
      db,
      userId: props.userId,
      answers: props.answers,
      requiredIndex: asked,
      ip: props.ip,
    });
  } catch (err) {
    // wrong answers keep their count; a failure of the service gives it back
    if (!(err instanceof UserError && err.code === "SECURITY_VERIFICATION_FAILED")) await attempt.release();
    throw err;
  }
  await limiter.succeed(["securityAnswers", key]);
  if (!pending) return { kind: "verified" };
  // answered: the next sign-in draws its question anew
  await clearPinnedQuestion(db.prisma, props.userId);
  const user = await recordLogin({
    db,
    user: await db.prisma.user.findUniqueOrThrow({ where: { id: props.userId } }),
    ip: props.ip,
  });
  return { kind: "signedIn", user };
}
