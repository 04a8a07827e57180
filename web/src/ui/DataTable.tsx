import { Classes, HTMLTable } from "@blueprintjs/core";
import { Fragment, type ReactNode } from "react";
import { ScrollRegion } from "./ScrollRegion";

/** Props of {@link DataTable}. */
export interface DataTableProps<T> {
  /** the class of the box the table scrolls in; without it (and without `region`) the table stands bare */
  scrollClassName?: string;
  /** the name of a scroll region that takes focus (nothing in the table is focusable); without it, a plain box */
  region?: string;
  className?: string;
  /** the table's name for screen readers */
  label?: string;
  /** the id of the element that names the table (its heading), instead of `label` */
  labelledBy?: string;
  striped?: boolean;
  interactive?: boolean;
  /** the header row: a string is a column heading; anything else is a `<th>` of its own */
  columns: readonly ReactNode[];
  /** headings without `scope="col"` (the tables of the documents pages) */
  plainHeadings?: boolean;
  /** a last, muted heading over the rows' buttons: "Actions", or the text given ("Action") */
  actions?: boolean | string;
  /** a caption above the header row */
  caption?: ReactNode;
  rows: readonly T[];
  /** a row, drawn as its `<tr>` */
  children(row: T, index: number): ReactNode;
}

/**
 * The dense table of the admin pages: a compact Blueprint table with a header row, in a box that
 * scrolls sideways on a narrow screen (a focusable scroll region when given a name).
 */
export function DataTable<T>(props: DataTableProps<T>) {
  const { scrollClassName, region } = props;
  const table = (
    <HTMLTable
      compact
      striped={props.striped}
      interactive={props.interactive}
      className={props.className}
      aria-label={props.label}
      aria-labelledby={props.labelledBy}
    >
      {props.caption}
      <thead>
        <tr>
          {props.columns.map((column, i) =>
            typeof column === "string" ? (
              <th key={column} scope={props.plainHeadings ? undefined : "col"}>
                {column}
              </th>
            ) : (
              // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed
              <Fragment key={i}>{column}</Fragment>
            ),
          )}
          {props.actions ? (
            <th scope="col">
              <span className={Classes.TEXT_MUTED}>{props.actions === true ? "Actions" : props.actions}</span>
            </th>
          ) : null}
        </tr>
      </thead>
      <tbody>{props.rows.map((row, i) => props.children(row, i))}</tbody>
    </HTMLTable>
  );
  if (region) {
    return (
      <ScrollRegion className={scrollClassName ?? ""} label={region}>
        {table}
      </ScrollRegion>
    );
  }
  return scrollClassName ? <div className={scrollClassName}>{table}</div> : table;
}
