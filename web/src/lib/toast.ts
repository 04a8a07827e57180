import { Intent, type Toaster } from "@blueprintjs/core";
import { createElement } from "react";
import { ToastQueue } from "./toastQueue";

export { MAX_TOASTS, TOAST_REMOVE_DELAY_MS } from "./toastQueue";

/** Spec §4/§9: a toast is shown for 5 seconds. */
export const TOAST_TIMEOUT_MS = 5000;

/** The spec's notification queue (one toast; a dismissed record kept 1,000,000 ms). */
export const toastQueue = new ToastQueue();

/** What a part of the app asks to show. `destructive` is the spec's word for a failure toast. */
export interface ToastInput {
  title: string;
  description?: string;
  intent?: Intent | "destructive";
  /** milliseconds; default 5000 */
  timeout?: number;
  /** a button in the toast */
  action?: { text: string; onClick(): void };
}

let toaster: Toaster | null = null;
const pending: ToastInput[] = [];

/** Connects the toaster rendered by the layout (null when it unmounts); shows toasts asked for before. */
export function registerToaster(next: Toaster | null): void {
  toaster = next;
  if (!next) return;
  for (const input of pending.splice(0)) showToast(input);
}

/** Dismisses every toast shown (a swipe to the right dismisses the one visible toast). */
export function dismissToasts(): void {
  toastQueue.dismiss();
  toaster?.clear();
}

/** Maps the spec's toast variants onto Blueprint intents. */
export function toastIntent(intent: ToastInput["intent"]): Intent {
  if (intent === "destructive") return Intent.DANGER;
  return intent ?? Intent.NONE;
}

/**
 * Shows a toast with a bold title and an optional description. Before the layout has mounted its
 * toaster the toast waits and shows as soon as it has. Returns the toast key, or null while waiting.
 */
export function showToast(input: ToastInput): string | null {
  if (!toaster) {
    pending.push(input);
    return null;
  }
  const key = toaster.show({
    onDismiss: () => toastQueue.dismiss(key),
    message: createElement(
      "div",
      { className: "portal-toast" },
      createElement("strong", null, input.title),
      input.description === undefined ? null : createElement("div", null, input.description),
    ),
    intent: toastIntent(input.intent),
    action: input.action ? { text: input.action.text, onClick: input.action.onClick } : undefined,
    timeout: input.timeout ?? TOAST_TIMEOUT_MS,
  });
  toastQueue.add({ key, title: input.title, description: input.description });
  return key;
}
