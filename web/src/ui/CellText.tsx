import "./tables.css";
import { Text } from "@blueprintjs/core";

/** Props of {@link CellText}. */
export interface CellTextProps {
  /** the value, shown whole when it fits */
  children: string;
  /** the widest the value may grow before it is cut: 160, 240 (default) or 360 px */
  width?: "narrow" | "medium" | "wide";
  className?: string;
}

/**
 * One value of a table cell (an email, a name, an address) on one line: never broken mid-word; past
 * its width it is cut with an ellipsis and the whole value shows as its tooltip (Blueprint's Text
 * sets the title when the value does not fit). Screen readers read the whole value either way.
 */
export function CellText({ children, width = "medium", className }: CellTextProps) {
  return (
    <Text
      tagName="span"
      ellipsize
      className={`portal-cell-text portal-cell-text-${width}${className ? ` ${className}` : ""}`}
    >
      {children}
    </Text>
  );
}
