import { NonIdealState } from "@blueprintjs/core";
import { type ReactNode, useState } from "react";
import { KeysetList } from "./KeysetList";

/** How many rows a short list shows, and the `first` to ask for. */
export interface ShownRows {
  shown: number;
  /** one more than shown (at most `max`), so the answer tells whether there are more */
  first: number;
  /** how many more each "Show more" adds */
  step: number;
  more(): void;
}

/**
 * The count of a list that grows by `step` rows at each "Show more", up to `max` - 1 rows (the
 * server's largest `first`).
 */
export function useShownRows(step: number, max: number): ShownRows {
  const [shown, setShown] = useState(step);
  return {
    shown,
    first: Math.min(shown + 1, max),
    step,
    more: () => setShown((n) => Math.min(n + step, max - 1)),
  };
}

/** What a list's query gives {@link HistoryList}. */
export interface HistoryQuery {
  loading: boolean;
  error?: Error;
  data?: unknown;
  previousData?: unknown;
  refetch(): Promise<unknown>;
}

/** Props of {@link HistoryList}. */
export interface HistoryListProps<T> {
  query: HistoryQuery;
  list: ShownRows;
  /** the rows answered (one more than shown when there are more) */
  rows: readonly T[];
  /** what the rows are, in the plural: "notes", "appointments" */
  what: string;
  emptyText: string;
  className?: string;
  children(shown: readonly T[]): ReactNode;
}

/**
 * A short list asked for with a growing `first` (a drawer's tab): the failure with "Try again", a
 * spinner for the first load, the empty text, then the rows shown and "Show N more" while the answer
 * holds more than they.
 */
export function HistoryList<T>({
  query,
  list,
  rows,
  what,
  emptyText,
  className,
  children,
}: HistoryListProps<T>) {
  return (
    <KeysetList
      error={query.error}
      errorTitle={`The ${what} could not be loaded`}
      onRetry={() => void query.refetch().catch(() => undefined)}
      loading={query.loading && !query.data && !query.previousData}
      loadingLabel={`Loading the ${what}`}
      rows={rows}
      empty={<NonIdealState title={emptyText} />}
      more={
        rows.length > list.shown
          ? {
              className,
              small: true,
              text: `Show ${list.step} more ${what}`,
              loading: query.loading,
              onClick: list.more,
            }
          : null
      }
    >
      {(answered) => children(answered.slice(0, list.shown))}
    </KeysetList>
  );
}
