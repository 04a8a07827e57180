import { startPeriodicSweep } from "./periodicSweep";

// The periodic sweep the document clean-up and the appointment reminders run on: once at start,
// then every interval, never two at a time; a failed sweep does not stop the next, and stop() waits
// for the one in progress. Fake timers, and sweeps that finish when the test says so.

const INTERVAL_MS = 1000;

/** Sweeps that each wait for the test to finish them (with the number of the sweep). */
function controlledSweeps() {
  const finishers: (() => void)[] = [];
  return {
    get started() {
      return finishers.length;
    },
    sweep: () =>
      new Promise<number>((resolve) => {
        const n = finishers.length + 1;
        finishers.push(() => resolve(n));
      }),
    finish(n: number) {
      finishers[n - 1]?.();
    },
  };
}

beforeEach(() => {
  jest.useFakeTimers();
});
afterEach(() => {
  jest.useRealTimers();
});

describe("a periodic sweep", () => {
  it("sweeps at once, skips the ticks that find it still running, and sweeps again once it is done", async () => {
    const sweeps = controlledSweeps();
    const reported: number[] = [];
    const sweeper = startPeriodicSweep({
      name: "test.sweep",
      intervalMs: INTERVAL_MS,
      sweep: sweeps.sweep,
      report: (result) => reported.push(result),
    });
    expect(sweeps.started).toBe(1);
    await jest.advanceTimersByTimeAsync(3 * INTERVAL_MS);
    expect(sweeps.started).toBe(1);
    sweeps.finish(1);
    await jest.advanceTimersByTimeAsync(0);
    expect(reported).toEqual([1]);
    await jest.advanceTimersByTimeAsync(INTERVAL_MS);
    expect(sweeps.started).toBe(2);

    // stop() waits for the sweep in progress; no sweep starts after it
    let stopped = false;
    const stopping = sweeper.stop().then(() => {
      stopped = true;
    });
    await jest.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    sweeps.finish(2);
    await stopping;
    expect(reported).toEqual([1, 2]);
    await jest.advanceTimersByTimeAsync(3 * INTERVAL_MS);
    expect(sweeps.started).toBe(2);
  });

  it("tries again at the next tick after a failed sweep", async () => {
    let calls = 0;
    const reported: number[] = [];
    const sweeper = startPeriodicSweep({
      name: "test.sweep",
      intervalMs: INTERVAL_MS,
      sweep: async () => {
        calls += 1;
        if (calls === 1) throw new Error("store away");
        return calls;
      },
      report: (result) => reported.push(result),
    });
    await jest.advanceTimersByTimeAsync(INTERVAL_MS);
    await sweeper.stop();
    expect(calls).toBe(2);
    expect(reported).toEqual([2]);
  });
});
