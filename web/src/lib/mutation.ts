import { useCallback, useRef, useState } from "react";

/** A mutation as a component uses it: run it, and whether it is running. */
export interface Mutation<I, R> {
  /** Runs the mutation; resolves with its result, or undefined when it failed (onError has run). */
  run(input: I): Promise<R | undefined>;
  isPending: boolean;
  error: Error | undefined;
}

/** What a mutation does and what happens after it. */
export interface MutationOptions<I, R> {
  mutate(input: I): Promise<R>;
  onSuccess?(result: R, input: I): void;
  onError?(error: Error, input: I): void;
}

/**
 * A small mutation hook in the spec's data layer (no retry): runs `mutate`, tracks pending and error,
 * and calls onSuccess or onError. `run` never throws.
 */
export function useMutation<I, R>(options: MutationOptions<I, R>): Mutation<I, R> {
  const [isPending, setPending] = useState(false);
  const [error, setError] = useState<Error | undefined>(undefined);
  const latest = useRef(options);
  latest.current = options;

  const run = useCallback(async (input: I): Promise<R | undefined> => {
    setPending(true);
    setError(undefined);
    try {
      const result = await latest.current.mutate(input);
      latest.current.onSuccess?.(result, input);
      return result;
    } catch (caught) {
      const err = caught instanceof Error ? caught : new Error(String(caught));
      setError(err);
      latest.current.onError?.(err, input);
      return undefined;
    } finally {
      setPending(false);
    }
  }, []);

  return { run, isPending, error };
}
