import { MAX_TOASTS, TOAST_REMOVE_DELAY_MS, ToastQueue } from "./toastQueue";

/** Timers the test advances by hand. */
function manualTimers() {
  let now = 0;
  const pending = new Map<number, { at: number; callback: () => void }>();
  let next = 1;
  return {
    setTimeout(callback: () => void, ms: number) {
      const id = next++;
      pending.set(id, { at: now + ms, callback });
      return id;
    },
    clearTimeout(handle: unknown) {
      if (typeof handle === "number") pending.delete(handle);
    },
    advance(ms: number) {
      now += ms;
      for (const [id, timer] of [...pending]) {
        if (timer.at > now) continue;
        pending.delete(id);
        timer.callback();
      }
    },
    get scheduled() {
      return pending.size;
    },
  };
}

describe("the notification queue (spec §4, §9)", () => {
  it("uses the spec's constants: one toast, removal 1,000,000 ms after dismissal", () => {
    expect([MAX_TOASTS, TOAST_REMOVE_DELAY_MS]).toEqual([1, 1_000_000]);
  });

  it("keeps only the newest toast: a new one replaces the visible one", () => {
    const queue = new ToastQueue(MAX_TOASTS, manualTimers());
    queue.add({ key: "a", title: "Login failed" });
    expect(queue.add({ key: "b", title: "Registration successful" })).toEqual(["a"]);
    expect(queue.visible.map((t) => t.title)).toEqual(["Registration successful"]);
    expect(queue.records).toHaveLength(1);
  });

  it("keeps a dismissed toast closed in the queue until 1,000,000 ms have passed", () => {
    const timers = manualTimers();
    const queue = new ToastQueue(MAX_TOASTS, timers);
    queue.add({ key: "a", title: "Notes Updated", description: "Your notes have been saved successfully." });
    queue.dismiss("a");
    expect(queue.visible).toEqual([]);
    expect(queue.records).toEqual([
      {
        key: "a",
        title: "Notes Updated",
        description: "Your notes have been saved successfully.",
        open: false,
      },
    ]);
    timers.advance(TOAST_REMOVE_DELAY_MS - 1);
    expect(queue.records).toHaveLength(1);
    timers.advance(1);
    expect(queue.records).toEqual([]);
  });

  it("shows a repeated toast again after the same one was dismissed, dropping the closed record", () => {
    const timers = manualTimers();
    const queue = new ToastQueue(MAX_TOASTS, timers);
    queue.add({ key: "a", title: "Login failed" });
    queue.dismiss();
    queue.add({ key: "b", title: "Login failed" });
    expect(queue.visible.map((t) => t.key)).toEqual(["b"]);
    expect(timers.scheduled).toBe(0);
  });
});
