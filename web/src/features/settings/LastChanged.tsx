import { Classes } from "@blueprintjs/core";
import { formatDateTime } from "@web/features/documents/documents";

/** Props of {@link LastChanged}. */
export interface LastChangedProps {
  /** when the settings were last saved; nothing when they never were */
  updatedAt: string | null | undefined;
  /** who saved them, when known */
  updatedBy?: string | null;
  /** what follows from a change, said after: "Saved settings apply to the next message." */
  then?: string;
  /** a paragraph of its own rather than a line beside the save button */
  paragraph?: boolean;
}

/**
 * The muted line under a settings form: "Last changed {when} by {who}." and what follows from a
 * change, or "Never changed: the defaults apply."
 */
export function LastChanged({ updatedAt, updatedBy, then, paragraph = false }: LastChangedProps) {
  const Line = paragraph ? "p" : "span";
  return (
    <Line className={Classes.TEXT_MUTED}>
      {updatedAt
        ? `Last changed ${formatDateTime(updatedAt)}${updatedBy ? ` by ${updatedBy}` : ""}.`
        : "Never changed: the defaults apply."}
      {then ? ` ${then}` : ""}
    </Line>
  );
}
