import { Button } from "@blueprintjs/core";
import { FilterRemove, Refresh } from "@blueprintjs/icons";

/** Props of {@link RefreshButton}. */
export interface RefreshButtonProps {
  /** a reload is on its way (while something is already shown) */
  loading?: boolean;
  disabled?: boolean;
  /** a toolbar's small button (default); false for a page heading's */
  small?: boolean;
  onClick(): void;
}

/** The minimal "Refresh" button of a list's toolbar or a page's heading. */
export function RefreshButton({ loading, disabled, small = true, onClick }: RefreshButtonProps) {
  return (
    <Button
      variant="minimal"
      size={small ? "small" : undefined}
      icon={<Refresh />}
      text="Refresh"
      loading={loading}
      disabled={disabled}
      onClick={onClick}
    />
  );
}

/** Props of {@link ClearFiltersButton}. */
export interface ClearFiltersButtonProps {
  /** nothing is filtered */
  disabled: boolean;
  onClick(): void;
}

/** The minimal "Clear filters" button at the end of a filter bar. */
export function ClearFiltersButton({ disabled, onClick }: ClearFiltersButtonProps) {
  return (
    <Button
      variant="minimal"
      icon={<FilterRemove />}
      text="Clear filters"
      disabled={disabled}
      onClick={onClick}
    />
  );
}
