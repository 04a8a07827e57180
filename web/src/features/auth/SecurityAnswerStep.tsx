import { Button, Callout, Intent } from "@blueprintjs/core";
import { zodResolver } from "@hookform/resolvers/zod";
import { securityAnswersSchema } from "@schema/validation/user";
import { completeSignIn, useRestMutation } from "@web/data/rest";
import { serverMessage } from "@web/lib/apiErrors";
import { type SafeUser, type SecurityChallenge } from "@web/lib/auth";
import { showToast } from "@web/lib/toast";
import { TextField } from "@web/ui/TextField";
import { useForm } from "react-hook-form";
import { z } from "zod";

/** Props of the enhanced-security step after the password. */
export interface SecurityAnswerStepProps {
  challenge: SecurityChallenge;
  onSignedIn(user: SafeUser): void;
  onCancel(): void;
}

const answerForm = z.object({ answer: securityAnswersSchema.shape.answers.element.shape.answer });
type AnswerForm = z.input<typeof answerForm>;

/**
 * The extra step for enhanced-security users (shared DECISIONS): answer the question the server asked;
 * POST /api/verify-security-answers grants the session ('Security verification successful').
 */
export function SecurityAnswerStep({ challenge, onSignedIn, onCancel }: SecurityAnswerStepProps) {
  const verify = useRestMutation<string, SafeUser>({
    request: (answer) => ({
      method: "POST",
      path: "/api/verify-security-answers",
      body: { userId: challenge.userId, answers: [{ questionIndex: challenge.question.index, answer }] },
    }),
    onSuccess: (user) => {
      completeSignIn(user);
      showToast({
        title: "Security verification successful",
        description: "Your identity has been verified.",
      });
    },
    onError: (error) =>
      showToast({
        title: "Security verification failed",
        description: serverMessage(error, "Security verification failed"),
        intent: "destructive",
      }),
  });
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<AnswerForm>({ resolver: zodResolver(answerForm), defaultValues: { answer: "" } });

  const handleVerify = handleSubmit(async ({ answer }) => {
    const user = await verify.run(answer);
    if (user) onSignedIn(user);
  });

  return (
    <form onSubmit={handleVerify} noValidate aria-label="Security question">
      <Callout intent={Intent.PRIMARY} title="One more step">
        Your account uses enhanced security. Answer your security question to finish signing in.
      </Callout>
      <div className="portal-page-after-callout">
        <TextField
          id="security-answer"
          label={challenge.question.text}
          autoComplete="off"
          registration={register("answer")}
          error={errors.answer?.message}
        />
      </div>
      <div className="portal-actions">
        <Button type="submit" intent={Intent.PRIMARY} text="Verify" loading={verify.isPending} />
        <Button variant="minimal" text="Back to login" onClick={onCancel} />
      </div>
    </form>
  );
}
