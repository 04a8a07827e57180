import { getQueryFn } from "@web/data/api";

/** GET /api/security-questions/{userId}: the user's three questions (never the answers). */
export interface SecurityQuestionsPayload {
  userId: number;
  questions: string[];
}

const getQuestions = getQueryFn<SecurityQuestionsPayload>({ on401: "throw" });

/**
 * The security questions of `userId`, or null when none are set (404, spec §7).
 * @throws Error "<status>: <body>" for other failures (the caller shows 'Failed to load security questions').
 */
export async function fetchSecurityQuestions(
  userId: number,
  load: (path: string) => Promise<SecurityQuestionsPayload | null> = getQuestions,
): Promise<SecurityQuestionsPayload | null> {
  try {
    return await load(`/api/security-questions/${encodeURIComponent(String(userId))}`);
  } catch (error) {
    if (error instanceof Error && error.message.startsWith("404:")) return null;
    throw error;
  }
}
