import type { Db } from "../db";

// The one runner of the portal's lease-based loops: user jobs (bulk changes, imports), the Pro-app
// resync, the email sender and the webhook dispatcher. A loop claims work with a lease (its claim
// statement takes rows FOR UPDATE SKIP LOCKED and moves their lease forward, so a claim commits
// before its answer and a lease that runs out makes the work claimable by another runner), holds at
// most `concurrency` items in flight, and claims again as places free up. It wakes on a NOTIFY
// channel (when given), a timer, and (unless told otherwise) after each item; stop() stops claiming
// and waits for the claim and the items in flight.

/** What a claim answers: the items it took and whether more may be waiting. */
export interface Claimed<T> {
  items: T[];
  /** more may be due (default: the claim filled every free place) */
  more?: boolean;
}

export interface LeaseRunnerOptions<T> {
  db: Db;
  /** the NOTIFY channel that wakes the runner (none: the timer only) */
  channel?: string;
  /** the fallback wake-up */
  pollMs: number;
  /** items in flight at once (default 1: one job at a time) */
  concurrency?: number;
  /**
   * Claims up to `room` items under a lease (the claim's own statement decides the lease).
   * @throws whatever the database throws; the runner reports it to onClaimError and waits for the
   * next wake-up.
   */
  claim(room: number): Promise<T[] | Claimed<T>>;
  /**
   * Works one claimed item off; `isStopped` turns true once stop() was called (a long job checks it
   * between batches and leaves the rest to the lease). An error it throws goes to onRunError.
   */
  run(item: T, isStopped: () => boolean): Promise<void>;
  onClaimError(err: unknown): void;
  onRunError?(err: unknown, item: T): void;
  /**
   * true (default): each finished item wakes the runner (it claims again); false: a finished item
   * only resumes a claim already known to be wanted (more was true).
   */
  wakeAfterEach?: boolean;
}

/** A running lease runner. */
export interface LeaseRunner {
  /** looks for due work now */
  wake(): void;
  /** stops claiming and waits for the claim and the items in flight; the same promise each call */
  stop(): Promise<void>;
}

/**
 * Starts a lease runner: LISTENs on its channel, arms its timer and claims at once.
 * @throws RangeError when `concurrency` is not a positive integer; the database's error when it
 * refuses the LISTEN.
 */
export async function startLeaseRunner<T>(options: LeaseRunnerOptions<T>): Promise<LeaseRunner> {
  const concurrency = options.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError("concurrency must be a positive integer");
  }
  const wakeAfterEach = options.wakeAfterEach ?? true;
  const inFlight = new Set<Promise<void>>();
  const isStopped = () => stopped;
  let stopped = false;
  let stopping: Promise<void> | undefined;
  /** due work may be waiting that this runner has not claimed yet */
  let wanted = false;
  let claiming: Promise<void> | undefined;

  function start(item: T): void {
    // run starts now, in this turn (a transport counts its messages before the next claim)
    const work: Promise<void> = (async () => {
      try {
        await options.run(item, isStopped);
      } catch (err) {
        options.onRunError?.(err, item);
      }
    })().finally(() => {
      inFlight.delete(work);
      if (wakeAfterEach) wake();
      else claimLoop();
    });
    inFlight.add(work);
  }

  async function claimWhileRoom(): Promise<void> {
    while (wanted && !stopped && inFlight.size < concurrency) {
      wanted = false;
      const room = concurrency - inFlight.size;
      try {
        const answer = await options.claim(room);
        const claimed = Array.isArray(answer) ? { items: answer } : answer;
        for (const item of claimed.items) start(item);
        if (claimed.more ?? claimed.items.length >= room) wanted = true;
      } catch (err) {
        options.onClaimError(err);
        return;
      }
    }
  }

  /** Claims while work may be waiting and there is room; one claim at a time. */
  function claimLoop(): void {
    if (stopped || claiming || !wanted || inFlight.size >= concurrency) return;
    claiming = claimWhileRoom().finally(() => {
      claiming = undefined;
      claimLoop();
    });
  }

  function wake(): void {
    wanted = true;
    claimLoop();
  }

  const unlisten = options.channel ? await options.db.listen(options.channel, wake) : undefined;
  const timer = setInterval(wake, options.pollMs);
  timer.unref();
  wake();

  return {
    wake,
    stop() {
      stopping ??= (async () => {
        stopped = true;
        clearInterval(timer);
        await unlisten?.().catch(() => undefined);
        await claiming;
        while (inFlight.size > 0) await Promise.all(inFlight);
      })();
      return stopping;
    },
  };
}
