import { TOUR_CLOSED, TOUR_MAX_WIDTH_PX, TOUR_STEPS, type TourState, tourReducer } from "./tour";

describe("the guided tour", () => {
  it("has the four steps of the spec, in order", () => {
    expect(TOUR_STEPS.map((s) => s.anchor)).toEqual([
      "logo",
      "dashboard-link",
      "appointments-link",
      "user-menu",
    ]);
    expect(TOUR_STEPS[0]?.content).toMatch(/welcome.*portal.*gateway to .*consulting services/i);
    expect(TOUR_STEPS[2]?.content).toBe("Schedule and manage consulting sessions with our team.");
    expect(TOUR_STEPS[3]?.content).toMatch(/account settings and other options/);
    expect(TOUR_MAX_WIDTH_PX).toBe(353);
  });

  it("ignores navigation while closed", () => {
    expect(tourReducer(TOUR_CLOSED, { type: "next" })).toEqual(TOUR_CLOSED);
    expect(tourReducer(TOUR_CLOSED, { type: "previous" })).toEqual(TOUR_CLOSED);
    expect(tourReducer(TOUR_CLOSED, { type: "goTo", step: 2 })).toEqual(TOUR_CLOSED);
  });

  it("opens at step 0, even when reopened after moving on", () => {
    const atTwo: TourState = { open: true, step: 2 };
    expect(tourReducer(TOUR_CLOSED, { type: "open" })).toEqual({ open: true, step: 0 });
    expect(tourReducer(atTwo, { type: "open" })).toEqual({ open: true, step: 0 });
  });

  it("moves with next, previous and the dots, within the steps", () => {
    let state = tourReducer(TOUR_CLOSED, { type: "open" });
    state = tourReducer(state, { type: "previous" });
    expect(state).toEqual({ open: true, step: 0 });
    state = tourReducer(state, { type: "next" });
    expect(state).toEqual({ open: true, step: 1 });
    state = tourReducer(state, { type: "goTo", step: 3 });
    expect(state).toEqual({ open: true, step: 3 });
    expect(tourReducer(state, { type: "goTo", step: 4 })).toEqual(state);
    expect(tourReducer(state, { type: "goTo", step: -1 })).toEqual(state);
    expect(tourReducer(state, { type: "previous" })).toEqual({ open: true, step: 2 });
  });

  it("closes on close and when finishing the last step", () => {
    expect(tourReducer({ open: true, step: 1 }, { type: "close" })).toEqual(TOUR_CLOSED);
    expect(tourReducer({ open: true, step: 3 }, { type: "next" })).toEqual(TOUR_CLOSED);
  });
});
