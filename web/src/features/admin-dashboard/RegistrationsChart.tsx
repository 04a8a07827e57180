import { Classes } from "@blueprintjs/core";
import { DataTable } from "@web/ui/DataTable";
import { useId } from "react";
import { chartMax, formatDay, registrationsSummary } from "./dashboard";

/** Props of the registrations chart. */
export interface RegistrationsChartProps {
  days: readonly { day: string; count: number }[];
}

const WIDTH = 600;
const HEIGHT = 160;
const TOP = 10;
const BOTTOM = 20;

/**
 * New registrations per business day as SVG bars (each bar's count is its title), summed up in a
 * sentence that is also the image's name, with the numbers as a table under "Show the numbers".
 */
export function RegistrationsChart({ days }: RegistrationsChartProps) {
  const captionId = useId();
  const max = chartMax(days.map((d) => d.count));
  const slot = WIDTH / Math.max(days.length, 1);
  const plot = HEIGHT - TOP - BOTTOM;
  const summary = registrationsSummary(days);
  return (
    <figure className="dashboard-chart" aria-labelledby={captionId}>
      <figcaption id={captionId} className={Classes.TEXT_MUTED}>
        {summary}
      </figcaption>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="dashboard-chart-svg"
        role="img"
        aria-label={`New registrations per day. ${summary}`}
      >
        <line x1={0} x2={WIDTH} y1={HEIGHT - BOTTOM} y2={HEIGHT - BOTTOM} className="dashboard-chart-axis" />
        <text x={2} y={TOP + 2} className="dashboard-chart-label" dominantBaseline="hanging">
          {max}
        </text>
        {days.map((d, i) => {
          const h = (d.count / max) * plot;
          return (
            <rect
              key={d.day}
              x={i * slot + slot * 0.15}
              width={slot * 0.7}
              y={HEIGHT - BOTTOM - h}
              height={h}
              className="dashboard-chart-bar"
            >
              <title>{`${formatDay(d.day)}: ${d.count}`}</title>
            </rect>
          );
        })}
        {days.length > 0 ? (
          <>
            <text x={0} y={HEIGHT - 4} className="dashboard-chart-label">
              {formatDay(days[0]?.day ?? "")}
            </text>
            <text x={WIDTH} y={HEIGHT - 4} className="dashboard-chart-label" textAnchor="end">
              {formatDay(days.at(-1)?.day ?? "")}
            </text>
          </>
        ) : null}
      </svg>
      <details className="dashboard-chart-table">
        <summary>Show the numbers</summary>
        <DataTable label="New registrations per day" columns={["Day", "New registrations"]} rows={days}>
          {(d) => (
            <tr key={d.day}>
              <th scope="row">{formatDay(d.day)}</th>
              <td>{d.count}</td>
            </tr>
          )}
        </DataTable>
      </details>
    </figure>
  );
}
