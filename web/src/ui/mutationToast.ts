import { Intent } from "@blueprintjs/core";
import { showToast, type ToastInput } from "@web/lib/toast";

/** A mutation's typed result: a `…Success` member, or an `AppError` with the server's message. */
interface Answer {
  __typename?: string;
}

/** Props of {@link runWithToast}. */
export interface RunWithToastProps<A extends Answer, K extends string> {
  /** runs the mutation and picks its field out of the answer */
  run(): Promise<A | null | undefined>;
  /** the `__typename` of the success member: "MutationUpdateBrandingSuccess" */
  success: K;
  /** the success toast (a success unless it names another intent); nothing shows no toast */
  saved(answer: Extract<A, { __typename?: K }>): ToastInput | undefined;
  /** run after the success toast */
  after?(answer: Extract<A, { __typename?: K }>): void;
  /** the failure toast's title: "Failed to save branding" */
  failure: string;
  /** the description when the server gave no message (default: the title again) */
  fallback?: string | null;
  /** told the server's message (or the fallback) when the answer is a typed failure */
  onFailure?(message: string | undefined): void;
}

/**
 * Runs a mutation whose answer is a typed result and says what became of it in a toast: the success
 * toast, the failure with the server's message, or the failure alone when the request failed.
 * Resolves to whether it succeeded.
 */
export async function runWithToast<A extends Answer, K extends string>(
  props: RunWithToastProps<A, K>,
): Promise<boolean> {
  const { failure } = props;
  try {
    const answer = await props.run();
    if (answer?.__typename === props.success) {
      const success = answer as Extract<A, { __typename?: K }>;
      const toast = props.saved(success);
      if (toast) showToast({ intent: Intent.SUCCESS, ...toast });
      props.after?.(success);
      return true;
    }
    const fallback = props.fallback === undefined ? failure : (props.fallback ?? undefined);
    const message =
      answer?.__typename === "AppError" && "message" in answer ? (answer.message as string) : fallback;
    props.onFailure?.(message);
    showToast({ title: failure, description: message, intent: "destructive" });
  } catch {
    showToast({ title: failure, intent: "destructive" });
  }
  return false;
}

/** An answer read for {@link toastAnswer}: a typed result, or nothing. */
export type ToastedAnswer = { __typename: string; message?: string } | null | undefined;

/**
 * Shows the toast of an action's typed answer (the server's message on failure, a 409 included);
 * true when it succeeded.
 */
export function toastAnswer(
  answer: ToastedAnswer,
  success: { title: string; description: string },
  failure: string,
): boolean {
  if (answer && answer.__typename !== "AppError") {
    showToast({ ...success, intent: Intent.SUCCESS });
    return true;
  }
  showToast({ title: failure, description: answer?.message ?? failure, intent: "destructive" });
  return false;
}
