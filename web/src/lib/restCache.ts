import { useCallback, useEffect, useSyncExternalStore } from "react";

/** Options of one cached REST query; the defaults are the spec's data-layer defaults. */
export interface RestQueryOptions {
  /** milliseconds before cached data is fetched again on next use; default Infinity (never stale) */
  staleTime?: number;
  /** how many times a failed fetch is tried again; default 0 */
  retry?: number;
}

/** The state of one cache entry as components see it. */
export interface RestQueryState<T> {
  data: T | undefined;
  error: Error | undefined;
  status: "idle" | "loading" | "success" | "error";
  /** epoch milliseconds of the last successful fetch or set, 0 when never */
  updatedAt: number;
}

/** Product-wide defaults (spec §1, §9): no retry, never stale; nothing refetches on focus or polls. */
export const DATA_LAYER_DEFAULTS: Required<RestQueryOptions> = {
  staleTime: Number.POSITIVE_INFINITY,
  retry: 0,
};

const IDLE: RestQueryState<never> = { data: undefined, error: undefined, status: "idle", updatedAt: 0 };

type Listener = () => void;

/** A keyed cache of REST answers with stale time, retries, set and invalidate. */
export class RestCache {
  private readonly states = new Map<string, RestQueryState<unknown>>();
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private readonly listeners = new Map<string, Set<Listener>>();

  constructor(private readonly retryDelay: (attempt: number) => number = defaultRetryDelay) {}

  /** The current state of `key` (a stable object until the entry changes). */
  get<T>(key: string): RestQueryState<T> {
    return (this.states.get(key) as RestQueryState<T> | undefined) ?? IDLE;
  }

  /** Calls `listener` whenever the entry of `key` changes; returns the unsubscribe function. */
  subscribe(key: string, listener: Listener): () => void {
    let set = this.listeners.get(key);
    if (!set) {
      set = new Set();
      this.listeners.set(key, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  }

  /** Replaces the cached data of `key` (after a login, for example). */
  set<T>(key: string, data: T): void {
    this.update(key, { data, error: undefined, status: "success", updatedAt: Date.now() });
  }

  /** Forgets the entry of `key`; a mounted query fetches it again. */
  invalidate(key: string): void {
    this.states.delete(key);
    this.notify(key);
  }

  /** Forgets every entry whose key starts with `prefix` (all permission checks after a sign-in, say). */
  invalidatePrefix(prefix: string): void {
    for (const key of [...this.states.keys()]) if (key.startsWith(prefix)) this.invalidate(key);
  }

  /** Whether `key` has no data younger than `staleTime`. */
  isStale(key: string, staleTime: number): boolean {
    const state = this.get(key);
    if (state.status !== "success") return true;
    return Date.now() - state.updatedAt >= staleTime;
  }

  /**
   * Resolves with the data of `key`: cached when fresh, else fetched once (concurrent callers share one
   * request) and tried again up to `retry` times.
   * @throws the last error of `fetcher` once every try failed.
   */
  async fetch<T>(key: string, fetcher: () => Promise<T>, options: RestQueryOptions = {}): Promise<T> {
    const { staleTime, retry } = { ...DATA_LAYER_DEFAULTS, ...options };
    if (!this.isStale(key, staleTime)) return this.get<T>(key).data as T;
    const running = this.inFlight.get(key);
    if (running) return running as Promise<T>;

    const previous = this.get<T>(key);
    this.update(key, { ...previous, status: previous.status === "success" ? "success" : "loading" });
    const attempt = async (): Promise<T> => {
      for (let tries = 0; ; tries += 1) {
        try {
          return await fetcher();
        } catch (error) {
          if (tries >= retry) throw error;
          await new Promise((resolve) => setTimeout(resolve, this.retryDelay(tries)));
        }
      }
    };
    const promise = attempt().then(
      (data) => {
        this.inFlight.delete(key);
        this.set(key, data);
        return data;
      },
      (error: unknown) => {
        this.inFlight.delete(key);
        const err = error instanceof Error ? error : new Error(String(error));
        this.update(key, { ...this.get<T>(key), error: err, status: "error" });
        throw err;
      },
    );
    this.inFlight.set(key, promise);
    return promise;
  }

  private update(key: string, state: RestQueryState<unknown>): void {
    this.states.set(key, state);
    this.notify(key);
  }

  private notify(key: string): void {
    for (const listener of this.listeners.get(key) ?? []) listener();
  }
}

function defaultRetryDelay(attempt: number): number {
  return Math.min(1000 * 2 ** attempt, 30_000);
}

/** The app's one REST cache. */
export const restCache = new RestCache();

/**
 * Reads `key` from the REST cache in a component, fetching it with `fetcher` when it is missing or
 * stale. Errors are returned in the state, never thrown into rendering.
 */
export function useRestQuery<T>(
  key: string,
  fetcher: () => Promise<T>,
  options: RestQueryOptions = {},
  cache: RestCache = restCache,
): RestQueryState<T> {
  const subscribe = useCallback((listener: Listener) => cache.subscribe(key, listener), [cache, key]);
  const state = useSyncExternalStore(
    subscribe,
    () => cache.get<T>(key),
    () => cache.get<T>(key),
  );
  const staleTime = options.staleTime ?? DATA_LAYER_DEFAULTS.staleTime;
  const retry = options.retry ?? DATA_LAYER_DEFAULTS.retry;
  // biome-ignore lint/correctness/useExhaustiveDependencies: fetcher is a new closure each render; the key names what it fetches.
  useEffect(() => {
    if (state.status === "error" || !cache.isStale(key, staleTime)) return;
    cache.fetch(key, fetcher, { staleTime, retry }).catch(() => undefined);
  }, [cache, key, staleTime, retry, state.status]);
  return state;
}
