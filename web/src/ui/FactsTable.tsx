import { HTMLTable } from "@blueprintjs/core";
import type { ReactNode } from "react";

/** Props of {@link FactsTable}. */
export interface FactsTableProps {
  /** each fact: its label (the row's heading) and its value */
  rows: readonly (readonly [string, ReactNode])[];
  className?: string;
  /** the table's name, or the id of the heading that names it */
  label?: string;
  labelledBy?: string;
}

/** A compact two-column table of facts, each row headed by its label. */
export function FactsTable({ rows, className, label, labelledBy }: FactsTableProps) {
  return (
    <HTMLTable compact className={className} aria-label={label} aria-labelledby={labelledBy}>
      <tbody>
        {rows.map(([name, value]) => (
          <tr key={name}>
            <th scope="row">{name}</th>
            <td>{value}</td>
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}
