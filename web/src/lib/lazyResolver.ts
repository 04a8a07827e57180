import type { FieldValues, Resolver } from "react-hook-form";

/** A form resolver whose validation code loads apart from the form. */
export interface LazyResolver<T extends FieldValues> {
  /** the resolver to give useForm: it waits for the real one on first use */
  resolver: Resolver<T>;
  /** starts loading the real resolver (say, when the form is first focused); resolves with it */
  preload(): Promise<Resolver<T>>;
}

/**
 * Wraps a resolver that `load` imports on demand, so a form can show (and be typed into) before its
 * validation schemas have loaded: the first focus starts the download, and validating waits for it.
 * A failed download is tried again on the next use.
 * @throws from `resolver` what `load` throws, when the code cannot be loaded.
 */
export function lazyResolver<T extends FieldValues>(load: () => Promise<Resolver<T>>): LazyResolver<T> {
  let loading: Promise<Resolver<T>> | undefined;
  const preload = (): Promise<Resolver<T>> => {
    if (!loading) {
      const attempt = load();
      loading = attempt;
      attempt.catch(() => {
        if (loading === attempt) loading = undefined;
      });
    }
    return loading;
  };
  return {
    preload,
    resolver: async (values, context, options) => (await preload())(values, context, options),
  };
}
