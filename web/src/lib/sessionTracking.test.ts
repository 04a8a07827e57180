import { ACTIVITY_EVENTS } from "./sessionTracking";

describe("the session tracker (spec §4)", () => {
  it("listens to the spec's activity events", () => {
    expect(ACTIVITY_EVENTS).toEqual(["mousedown", "mousemove", "keypress", "scroll", "touchstart"]);
  });
});
