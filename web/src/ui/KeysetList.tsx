import { Button, Spinner } from "@blueprintjs/core";
import { showToast } from "@web/lib/toast";
import { type ReactNode, useState } from "react";
import { LoadError } from "./LoadError";

/** The button under a list that asks for the next page. */
export interface ShowMoreProps {
  /** "Load more", "Show 50 more notes" */
  text: string;
  loading: boolean;
  onClick(): void;
  className?: string;
  /** a small minimal button (inside a drawer) */
  small?: boolean;
}

/** Props of {@link KeysetList}. */
export interface KeysetListProps<T> {
  /** the failure to show instead of the list (pass it only while nothing was loaded) */
  error: Error | undefined;
  /** "The audit log could not be loaded" */
  errorTitle: string;
  onRetry(): void;
  /** nothing is asked for (a filter that cannot be sent): nothing is shown */
  idle?: boolean;
  /** the first page is on its way */
  loading: boolean;
  /** the spinner's name: "Loading the audit log" */
  loadingLabel: string;
  rows: readonly T[];
  /** what an empty list shows */
  empty: ReactNode;
  /** the next page's button, while there is one */
  more?: ShowMoreProps | null;
  /** the rows, drawn */
  children(rows: readonly T[]): ReactNode;
}

/**
 * The states every keyset list of the admin pages goes through: the failure with the server's
 * message and "Try again", a spinner for the first page, the empty state, then the rows and the
 * button that loads the next page while there is one.
 */
export function KeysetList<T>(props: KeysetListProps<T>) {
  const { error, rows, more } = props;
  if (error) return <LoadError title={props.errorTitle} error={error} onRetry={props.onRetry} />;
  if (props.idle) return null;
  if (props.loading) return <Spinner size={24} aria-label={props.loadingLabel} />;
  if (rows.length === 0) return <>{props.empty}</>;
  return (
    <>
      {props.children(rows)}
      {more ? (
        <Button
          className={more.className}
          variant={more.small ? "minimal" : undefined}
          size={more.small ? "small" : undefined}
          text={more.text}
          loading={more.loading}
          onClick={more.onClick}
        />
      ) : null}
    </>
  );
}

/** What {@link useLoadMore} gives a list. */
export interface LoadMore {
  /** whether the next page is on its way */
  loading: boolean;
  /** runs `fetchNext` (Apollo's fetchMore with the end cursor); a failure becomes a toast */
  load(fetchNext: () => Promise<unknown>): Promise<void>;
}

/**
 * The "Load more" of a keyset list: whether the next page is loading, and a runner that says
 * `failure` ("More audit entries could not be loaded") in a toast when the page cannot be had.
 */
export function useLoadMore(failure: string): LoadMore {
  const [loading, setLoading] = useState(false);
  const load = async (fetchNext: () => Promise<unknown>) => {
    setLoading(true);
    try {
      await fetchNext();
    } catch {
      showToast({ title: failure, intent: "destructive" });
    } finally {
      setLoading(false);
    }
  };
  return { loading, load };
}

/**
 * "Load more" of a keyset list: {@link useLoadMore} fetching the page after the list's cursor, and
 * nothing once there is no cursor.
 */
export function useLoadAfter(
  failure: string,
  endCursor: string | null | undefined,
  fetchAfter: (after: string) => Promise<unknown>,
): LoadMore & { loadMore(): void } {
  const more = useLoadMore(failure);
  const loadMore = () => {
    if (!endCursor) return;
    void more.load(() => fetchAfter(endCursor));
  };
  return { ...more, loadMore };
}
