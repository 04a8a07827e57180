// The notification queue of spec §4/§9 as a small state holder: at most one toast at a time, and a
// dismissed toast's record kept (closed) for 1,000,000 ms before it is removed. lib/toast.ts drives
// Blueprint's toaster with it; docs/DECISIONS.md ("Identity (web)") says how the two map.

/** Spec §4/§9: at most one toast is visible. */
export const MAX_TOASTS = 1;
/** Spec §4/§9: a dismissed toast is removed from the queue after 1,000,000 ms. */
export const TOAST_REMOVE_DELAY_MS = 1_000_000;

/** One toast in the queue: open while shown, closed once dismissed until it is removed. */
export interface ToastRecord {
  key: string;
  title: string;
  description?: string;
  open: boolean;
}

/** The timer functions the queue schedules removals with; tests pass their own. */
export interface QueueTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: QueueTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * The toast queue: a new toast goes first and the queue keeps only the newest {@link MAX_TOASTS}
 * (so a new toast replaces the visible one); a dismissed toast stays, closed, until
 * {@link TOAST_REMOVE_DELAY_MS} has passed or a newer toast pushes it out.
 */
export class ToastQueue {
  private items: ToastRecord[] = [];
  private readonly removals = new Map<string, unknown>();

  constructor(
    private readonly limit: number = MAX_TOASTS,
    private readonly timers: QueueTimers = realTimers,
  ) {}

  /** The records in the queue, newest first. */
  get records(): readonly ToastRecord[] {
    return this.items;
  }

  /** The toasts shown now (open records). */
  get visible(): readonly ToastRecord[] {
    return this.items.filter((item) => item.open);
  }

  /** Adds an open toast in front; returns the keys of the records it pushed out of the queue. */
  add(record: Omit<ToastRecord, "open">): string[] {
    const next = [{ ...record, open: true }, ...this.items.filter((item) => item.key !== record.key)];
    const dropped = next.slice(this.limit).map((item) => item.key);
    this.items = next.slice(0, this.limit);
    for (const key of dropped) this.cancelRemoval(key);
    return dropped;
  }

  /** Closes the toast `key` (every toast when omitted) and schedules its removal. */
  dismiss(key?: string): void {
    this.items = this.items.map((item) => {
      if ((key !== undefined && item.key !== key) || !item.open) return item;
      this.scheduleRemoval(item.key);
      return { ...item, open: false };
    });
  }

  /** Removes the record `key` from the queue. */
  remove(key: string): void {
    this.cancelRemoval(key);
    this.items = this.items.filter((item) => item.key !== key);
  }

  private scheduleRemoval(key: string): void {
    if (this.removals.has(key)) return;
    this.removals.set(
      key,
      this.timers.setTimeout(() => {
        this.removals.delete(key);
        this.items = this.items.filter((item) => item.key !== key);
      }, TOAST_REMOVE_DELAY_MS),
    );
  }

  private cancelRemoval(key: string): void {
    const handle = this.removals.get(key);
    if (handle === undefined) return;
    this.timers.clearTimeout(handle);
    this.removals.delete(key);
  }
}
