import { serialRefresh } from "./serialRefresh";

/** A refresh whose runs end when the test says, recording when each started. */
function controlled() {
  const started: number[] = [];
  const finish: (() => void)[] = [];
  let clock = 0;
  const run = () =>
    new Promise<void>((resolve) => {
      started.push(clock);
      finish.push(resolve);
    });
  return {
    started,
    tick: () => {
      clock += 1;
    },
    /** ends the oldest unfinished run and lets its follow-up start */
    async end(): Promise<void> {
      finish.shift()?.();
      await new Promise((r) => setImmediate(r));
    },
    run,
  };
}

describe("serialRefresh", () => {
  it("starts a call at once when nothing runs", () => {
    const c = controlled();
    serialRefresh(c.run)();
    expect(c.started).toEqual([0]);
  });

  it("runs once more after the running refresh when called meanwhile, however often", async () => {
    const c = controlled();
    const refresh = serialRefresh(c.run);
    refresh();
    c.tick();
    refresh(); // the second upload finished while the first refresh was in flight
    refresh();
    expect(c.started).toEqual([0]);
    await c.end();
    // the follow-up starts after the first ended: its answer includes the later change
    expect(c.started).toEqual([0, 1]);
    await c.end();
    expect(c.started).toEqual([0, 1]);
  });

  it("goes on after a failed refresh", async () => {
    let calls = 0;
    const refresh = serialRefresh(async () => {
      calls += 1;
      if (calls === 1) throw new Error("network");
    });
    refresh();
    refresh();
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(calls).toBe(2);
    refresh();
    await new Promise((r) => setImmediate(r));
    expect(calls).toBe(3);
  });
});
