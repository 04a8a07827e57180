import { ConfirmDialog, type ConfirmDialogProps } from "@web/ui/ConfirmDialog";
import { type MutationAnswer, useAnswerProblem } from "./esrtSync";

/** Props of {@link AnswerConfirmDialog}. */
export interface AnswerConfirmDialogProps<T> extends Omit<ConfirmDialogProps, "onConfirm" | "problem"> {
  /** the problem shown when the server gave no message */
  failure: string;
  /** sends the mutation and picks its typed answer */
  send(): Promise<MutationAnswer<T> | null | undefined>;
  /** what follows its success */
  onDone(data: T): void;
}

/**
 * A question before one mutation with a typed answer: confirming sends it, a refusal shows in the
 * dialog, a success goes on to `onDone`.
 */
export function AnswerConfirmDialog<T>({ failure, send, onDone, ...dialog }: AnswerConfirmDialogProps<T>) {
  const { problem, run } = useAnswerProblem();
  return <ConfirmDialog {...dialog} problem={problem} onConfirm={() => void run(failure, send, onDone)} />;
}
