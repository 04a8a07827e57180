/** One step of the guided tour (spec §2): the element it points at and what it says. */
export interface TourStep {
  /** value of the `data-tour` attribute of the element the step points at */
  anchor: string;
  title: string;
  content: string;
}

/** The four steps of the guided tour, in order (spec §2, Guided tour). */
export const TOUR_STEPS: readonly TourStep[] = [
  {
    anchor: "logo",
    title: "Welcome to the portal",
    content: "Welcome to the client portal, your gateway to our receivables consulting services.",
  },
  {
    anchor: "dashboard-link",
    title: "Your dashboard",
    content: "The Dashboard link brings you back to your console: your details, benefits and notes.",
  },
  {
    anchor: "appointments-link",
    title: "Appointments",
    content: "Schedule and manage consulting sessions with our team.",
  },
  {
    anchor: "user-menu",
    title: "Your account",
    content: "The user menu holds your account settings and other options.",
  },
];

/** Spec §2: the tour's popover is at most 353 px wide. */
export const TOUR_MAX_WIDTH_PX = 353;

/** The tour's state: closed (the default), or open at a step. */
export type TourState = { open: false } | { open: true; step: number };

/** What can happen to the tour. */
export type TourAction =
  | { type: "open" }
  | { type: "close" }
  | { type: "next" }
  | { type: "previous" }
  | { type: "goTo"; step: number };

export const TOUR_CLOSED: TourState = { open: false };

/**
 * The tour's transitions: opening starts at step 0, closing returns to closed, next and previous
 * stay within the steps (next on the last step closes the tour), and the dots go to any step.
 */
export function tourReducer(state: TourState, action: TourAction, stepCount = TOUR_STEPS.length): TourState {
  switch (action.type) {
    case "open":
      return { open: true, step: 0 };
    case "close":
      return TOUR_CLOSED;
    case "next":
      if (!state.open) return state;
      return state.step + 1 >= stepCount ? TOUR_CLOSED : { open: true, step: state.step + 1 };
    case "previous":
      if (!state.open) return state;
      return { open: true, step: Math.max(0, state.step - 1) };
    case "goTo":
      if (!state.open || action.step < 0 || action.step >= stepCount) return state;
      return { open: true, step: action.step };
  }
}
