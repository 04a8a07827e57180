-- The question an enhanced sign-in asks (issue 20): drawn once and kept for the user until it is
-- answered or its ten minutes end, so that signing in again does not draw another one.
ALTER TABLE "security_questions"
ADD COLUMN "pendingQuestionIndex" INTEGER,
ADD COLUMN "pendingQuestionUntil" TIMESTAMPTZ(3);
