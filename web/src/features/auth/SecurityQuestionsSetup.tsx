import { Callout, H2, Intent, Spinner, SpinnerSize } from "@blueprintjs/core";
import { zodResolver } from "@hookform/resolvers/zod";
import { securityQuestionsSchema } from "@schema/validation/user";
import { refetchCurrentUser, useCurrentUser, useRestMutation } from "@web/data/rest";
import { type SafeUser } from "@web/lib/auth";
import { fetchSecurityQuestions } from "@web/lib/securityQuestions";
import { showToast } from "@web/lib/toast";
import { TextField } from "@web/ui/TextField";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { Navigate, useNavigate } from "react-router-dom";
import type { z } from "zod";
import { failureToast, SubmitRow } from "./authFields";

const questionsForm = securityQuestionsSchema.pick({ questions: true });
type QuestionsForm = z.input<typeof questionsForm>;
type QuestionsInput = z.output<typeof questionsForm>;

const SLOTS = [0, 1, 2] as const;

/** Props of the form once the user is known. */
interface SecurityQuestionsFormProps {
  user: SafeUser;
}

/** Loads the user's current questions (404: none yet) to fill the form in. */
function useCurrentQuestions(userId: number): { questions: string[] | null; loading: boolean } {
  const [state, setState] = useState<{ questions: string[] | null; loading: boolean }>({
    questions: null,
    loading: true,
  });
  useEffect(() => {
    let live = true;
    fetchSecurityQuestions(userId)
      .then((payload) => {
        if (live) setState({ questions: payload?.questions ?? null, loading: false });
      })
      .catch(() => {
        if (!live) return;
        setState({ questions: null, loading: false });
        showToast({
          title: "Error",
          description: "Failed to load security questions",
          intent: "destructive",
        });
      });
    return () => {
      live = false;
    };
  }, [userId]);
  return state;
}

function SecurityQuestionsForm({ user }: SecurityQuestionsFormProps) {
  const navigate = useNavigate();
  const current = useCurrentQuestions(user.id);
  const save = useRestMutation<QuestionsInput, unknown>({
    request: ({ questions }) => ({
      method: "POST",
      path: "/api/security-questions",
      body: { userId: user.id, questions },
    }),
    onSuccess: () => {
      showToast({
        title: "Security questions saved",
        description: "Your security questions have been set successfully.",
      });
      void refetchCurrentUser();
    },
    onError: failureToast("Failed to set security questions"),
  });
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<QuestionsForm, unknown, QuestionsInput>({
    resolver: zodResolver(questionsForm),
    defaultValues: { questions: SLOTS.map(() => ({ question: "", answer: "" })) },
  });

  useEffect(() => {
    if (current.questions) {
      reset({ questions: SLOTS.map((i) => ({ question: current.questions?.[i] ?? "", answer: "" })) });
    }
  }, [current.questions, reset]);

  const handleSave = handleSubmit(async (input) => {
    if ((await save.run(input)) !== undefined) navigate("/dashboard");
  });

  if (current.loading) return <Spinner className="portal-page-spinner" size={SpinnerSize.STANDARD} />;
  return (
    <form onSubmit={handleSave} noValidate aria-label="Security questions">
      <H2>Security questions</H2>
      <p>
        {current.questions
          ? "You have security questions set. Saving replaces them and their answers."
          : "Choose three questions only you can answer. Answers are not case-sensitive."}
      </p>
      {errors.questions?.root?.message || errors.questions?.message ? (
        <Callout intent={Intent.DANGER}>
          {errors.questions?.root?.message ?? errors.questions?.message}
        </Callout>
      ) : null}
      {SLOTS.map((i) => (
        <fieldset key={i} className="portal-fieldset">
          <legend>Question {i + 1}</legend>
          <TextField
            id={`security-question-${i}`}
            label="Question"
            autoComplete="off"
            registration={register(`questions.${i}.question`)}
            error={errors.questions?.[i]?.question?.message}
          />
          <TextField
            id={`security-answer-${i}`}
            label="Answer"
            autoComplete="off"
            registration={register(`questions.${i}.answer`)}
            error={errors.questions?.[i]?.answer?.message}
          />
        </fieldset>
      ))}
      <SubmitRow text="Save security questions" loading={save.isPending} />
    </form>
  );
}

/** Security-question set-up for the signed-in user (/auth?mode=security-questions). */
export function SecurityQuestionsSetup() {
  const { user, isLoading } = useCurrentUser();
  if (isLoading) return <Spinner className="portal-page-spinner" size={SpinnerSize.STANDARD} />;
  if (!user) return <Navigate to="/auth" replace />;
  return <SecurityQuestionsForm user={user} />;
}
