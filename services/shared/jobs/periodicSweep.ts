import { logger } from "@services/shared/logger";

/**
 * Runs `sweep` now and every `intervalMs` until stopped (a tick that finds a sweep still running is
 * skipped); a failed sweep is logged (`failure`, "sweep failed" unless given) and the next one tries
 * again. What a sweep did is logged by `report` (unless given: "sweep done", its result, at debug).
 * stop() waits for a sweep in progress. Logs as `name`.
 */
export function startPeriodicSweep<T>(props: {
  name: string;
  intervalMs: number;
  sweep: () => Promise<T>;
  report?: (result: T, log: ReturnType<typeof logger>) => void;
  failure?: string;
}): { stop(): Promise<void> } {
  const log = logger(props.name);
  const report = props.report ?? ((result: T) => log.debug({ result }, "sweep done"));
  let running: Promise<void> | null = null;
  const tick = () => {
    if (running) return;
    running = props
      .sweep()
      .then(
        (result) => report(result, log),
        (err: unknown) => log.error({ err }, props.failure ?? "sweep failed"),
      )
      .finally(() => {
        running = null;
      });
  };
  tick();
  const timer = setInterval(tick, props.intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
